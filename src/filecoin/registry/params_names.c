/* v28 parameter file stems of Filecoin's circuits: identifier strings in the reference's exact formats,
 * hashed into the stem by cuzk_params_file_stem; and a circuit's keys opened from a parameter directory by
 * those names: paths, the .vk checked against the circuit's input count, the manifest's digests, the
 * development marker, the .params decoded and checked against the circuit. */
#include "filecoin/registry/params_names.h"
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "filecoin/registry/post_proof.h"

static cuzk_status fmt_result(int n, char *out, size_t out_len)
{
    if (n < 0 || (size_t)n >= out_len) {
        if (out_len)
            out[0] = 0;
        return CUZK_ERR_BAD_LENGTH;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_porep_params_identifier(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p)
{
    if (!out || !p)
        return CUZK_ERR_INVALID_ARG;
    /* StackedGraph / BucketGraph / PublicParams identifier() format strings, nested. */
    int n = snprintf(out, out_len,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
                     "expansion_degree: %d base_graph: drgraph::BucketGraph{size: %llu; degree: %d; "
                     "hasher: poseidon_hasher} }, "
                     "challenges: LayerChallenges { layers: %u, max_count: %u }, "
                     "tree: merkletree-poseidon_hasher-%u-%u-%u }",
                     CUZK_FC_EXP_DEGREE, (unsigned long long)p->nodes, CUZK_FC_DRG_DEGREE, p->layers,
                     p->challenges_per_partition, p->base_arity, p->sub_arity, p->top_arity);
    return fmt_result(n, out, out_len);
}

cuzk_status cuzk_fc_porep_params_prefix(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p)
{
    if (!out || !p)
        return CUZK_ERR_INVALID_ARG;
    int n = snprintf(out, out_len,
                     "stacked-proof-of-replication-merkletree-poseidon_hasher-%u-%u-%u-sha256_hasher",
                     p->base_arity, p->sub_arity, p->top_arity);
    return fmt_result(n, out, out_len);
}

cuzk_status cuzk_fc_porep_params_stem(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p)
{
    char id[512], prefix[128];
    cuzk_status st = cuzk_fc_porep_params_identifier(id, sizeof id, p);
    if (st == CUZK_OK)
        st = cuzk_fc_porep_params_prefix(prefix, sizeof prefix, p);
    if (st != CUZK_OK)
        return st;
    return cuzk_params_file_stem(out, out_len, prefix, id);
}

/* The interactive registered proof of a sector size (its PoRep circuit is every version's). */
static const cuzk_fc_seal_proof_t *porep_of_size(uint64_t sector_size)
{
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (int i = 0; i < 5; i++)
        if (t[i].sector_size == sector_size)
            return &t[i];
    return NULL;
}

cuzk_status cuzk_fc_params_stem(char *out, size_t out_len, cuzk_fc_circuit_t circuit, uint64_t sector_size,
                                cuzk_err_t *err)
{
    if (!out)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parameter stem: no output buffer");
    const cuzk_fc_seal_proof_t *p = porep_of_size(sector_size);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "parameter stem: no published parameters for a %llu-byte sector",
                            (unsigned long long)sector_size);
    char tree[16], prefix[128], id[256];
    snprintf(tree, sizeof tree, "%u-%u-%u", p->base_arity, p->sub_arity, p->top_arity);
    int n = 0;
    switch (circuit) {
    case CUZK_FC_CIRCUIT_POREP: {
        cuzk_status st = cuzk_fc_porep_params_stem(out, out_len, p);
        return st == CUZK_OK ? st : cuzk_err_set(err, st, "parameter stem: output buffer too small");
    }
    case CUZK_FC_CIRCUIT_WINNING_POST:
    case CUZK_FC_CIRCUIT_WINDOW_POST: {
        /* filecoin-proofs parameters.rs: Winning PoSt's 66 challenges of one sector become 66 sectors
         * of one challenge; Window PoSt has 10 challenges per sector and a size-dependent count. */
        const cuzk_fc_post_proof_t *pp;
        cuzk_status st = cuzk_fc_post_proof_for_size(
            &pp, circuit == CUZK_FC_CIRCUIT_WINNING_POST ? CUZK_FC_POST_WINNING : CUZK_FC_POST_WINDOW, sector_size,
            err);
        if (st != CUZK_OK)
            return st;
        snprintf(prefix, sizeof prefix, "proof-of-spacetime-fallback-merkletree-poseidon_hasher-%s", tree);
        n = snprintf(id, sizeof id,
                     "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, sector_count: %u}",
                     (unsigned long long)p->sector_size, pp->challenge_count, pp->sector_count);
        break;
    }
    case CUZK_FC_CIRCUIT_SNAP:
    case CUZK_FC_CIRCUIT_SNAP_POSEIDON:
        snprintf(prefix, sizeof prefix, "empty-sector-update-%smerkletree-poseidon_hasher-%s",
                 circuit == CUZK_FC_CIRCUIT_SNAP_POSEIDON ? "poseidon-" : "", tree);
        n = snprintf(id, sizeof id, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
                     (unsigned long long)p->nodes);
        break;
    default:
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parameter stem: unknown circuit %d", (int)circuit);
    }
    if (n < 0 || (size_t)n >= sizeof id)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "parameter stem: identifier too long");
    cuzk_status st = cuzk_params_file_stem(out, out_len, prefix, id);
    return st == CUZK_OK ? st : cuzk_err_set(err, st, "parameter stem: output buffer too small");
}

/* ---- a circuit's keys in a parameter directory ---------------------------------------------------------- */

cuzk_status cuzk_fc_params_paths(cuzk_porep_params_paths_t *p, const char *dir, const char *stem, cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    size_t n = strlen(stem);
    if (n >= sizeof p->stem)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parameter stem %.64s...: too long", stem);
    memcpy(p->stem, stem, n + 1);
    if (strlen(dir) > sizeof p->params - 32 - n)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%.64s...: directory name too long", dir);
    snprintf(p->params, sizeof p->params, "%s/%s.params", dir, stem);
    snprintf(p->vk, sizeof p->vk, "%s/%s.vk", dir, stem);
    snprintf(p->dev, sizeof p->dev, "%s/%s.cuzk-dev", dir, stem);
    snprintf(p->manifest, sizeof p->manifest, "%s/parameters.json", dir);
    return CUZK_OK;
}

static bool regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static cuzk_status missing(const char *path, cuzk_err_t *err)
{
    return cuzk_err_set(err, CUZK_ERR_IO, "missing parameters: %s (cuzk params generate makes development ones)",
                        path);
}

static cuzk_status read_vk(cuzk_fc_keys_t *k, const cuzk_fc_key_circuit_t *c, cuzk_err_t *err)
{
    if (!regular_file(k->paths.vk))
        return missing(k->paths.vk, err);
    cuzk_status st = cuzk_params_vk_read(&k->vk, k->paths.vk, err);
    if (st != CUZK_OK)
        return st;
    if (k->vk.ic_len != c->num_inputs + 1)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: %zu public inputs, the %s circuit has %zu", k->paths.vk,
                            k->vk.ic_len ? k->vk.ic_len - 1 : 0, c->name, c->num_inputs);
    return CUZK_OK;
}

cuzk_status cuzk_fc_keys_open(cuzk_fc_keys_t *k, const cuzk_porep_params_paths_t *paths,
                              const cuzk_fc_key_circuit_t *c, bool with_params, int threads, cuzk_err_t *err)
{
    memset(k, 0, sizeof *k);
    k->paths = *paths;
    cuzk_status st = CUZK_OK;
    if (with_params && !regular_file(k->paths.params))
        st = missing(k->paths.params, err);
    if (st == CUZK_OK)
        st = read_vk(k, c, err);
    bool manifest_checked = false; /* the files' digests matched parameters.json */
    if (st == CUZK_OK && regular_file(k->paths.manifest)) {
        if (with_params)
            st = cuzk_params_manifest_check(k->paths.manifest, k->paths.params, NULL, NULL, err);
        if (st == CUZK_OK)
            st = cuzk_params_manifest_check(k->paths.manifest, k->paths.vk, NULL, NULL, err);
        manifest_checked = st == CUZK_OK;
    }
    k->dev = regular_file(k->paths.dev);
    if (st == CUZK_OK && with_params) {
        /* a digest checked against the manifest vouches for every point; otherwise check them on the curve,
         * as bellperson's production reader does */
        cuzk_params_check check = manifest_checked ? CUZK_PARAMS_CHECK_NONE : CUZK_PARAMS_CHECK_CURVE;
        st = cuzk_params_open(&k->params, k->paths.params, check, threads, err);
        if (st == CUZK_OK)
            st = c->check_key(cuzk_params_key(k->params), c->arg, err);
        if (st == CUZK_OK)
            st = cuzk_params_get(&k->pk, k->params, err);
        if (st != CUZK_OK && err && !strstr(err->msg, k->paths.params)) {
            /* name the file unless the message already does */
            char msg[sizeof err->msg];
            memcpy(msg, err->msg, sizeof msg);
            cuzk_err_set(err, st, "%s: %s", k->paths.params, msg);
        }
    }
    if (st != CUZK_OK)
        cuzk_fc_keys_close(k);
    return st;
}

void cuzk_fc_keys_close(cuzk_fc_keys_t *k)
{
    cuzk_params_close(k->params);
    cuzk_groth16_vk_free(&k->vk);
    memset(k, 0, sizeof *k);
}
