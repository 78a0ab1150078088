/* cuzk: the offline tool.
 *   cuzk selfcheck    quick known-answer checks of the arithmetic on this machine
 *   cuzk groth16 ... / cuzk zkey ...   snarkjs-compatible commands (cuzk_groth16_cmd.c)
 *   cuzk params ...                    bellperson parameter files (cuzk_params_cmd.c)
 *   cuzk circuit info ...              shapes of Filecoin circuits (cuzk_circuit_cmd.c)
 *   cuzk seal ...                      seal a small sector, write its C1 output (cuzk_seal_cmd.c)
 *   cuzk porep prove|verify ...        PoRep C2 from a C1 output (cuzk_porep_cmd.c)
 *   cuzk post prove|verify|vanilla ... Winning / Window PoSt from vanilla proofs, and the vanilla proofs of
 *                                      sealed sectors (cuzk_post_cmd.c)
 *   cuzk snap encode|decode|vanilla|prove|verify ...  SnapDeals: new data into a CC sector and back, the
 *                                      vanilla partition proofs, the proof (cuzk_snap_cmd.c) */
#include <stdio.h>
#include <string.h>
#include "cli_impl.h"
#include "cli_opts.h"
#include "cuzk_circuit_cmd.h"
#include "cuzk_groth16_cmd.h"
#include "cuzk_params_cmd.h"
#include "cuzk_porep_cmd.h"
#include "cuzk_post_cmd.h"
#include "cuzk_seal_cmd.h"
#include "cuzk_snap_cmd.h"
#include "selfcheck.h"

/* The synopsis of every command, after the list. */
static void synopses(FILE *f)
{
    fprintf(f, "\nsynopses:\n"
               "  selfcheck\n");
    cuzk_groth16_cmd_usage(f);
    cuzk_params_cmd_usage(f);
    cuzk_circuit_cmd_usage(f);
    cuzk_seal_cmd_usage(f);
    cuzk_porep_cmd_usage(f);
    cuzk_post_cmd_usage(f);
    cuzk_snap_cmd_usage(f);
}

static int cmd_selfcheck(int argc, char **argv)
{
    static const cli_cmd cmd = {
        .prog = "cuzk selfcheck",
        .about = "Quick known-answer checks of the arithmetic on this machine, for every implementation the\n"
                 "CPU supports (exit 1 when one fails).\n"};
    int rc = cli_parse(&cmd, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    return selfcheck_run() ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"selfcheck", cmd_selfcheck, "quick known-answer checks of the arithmetic on this machine"},
        {"groth16", cuzk_groth16_cmd, "snarkjs-compatible Groth16 prove and verify"},
        {"zkey", cuzk_zkey_cmd, "snarkjs-compatible zkey export verificationkey"},
        {"params", cuzk_params_cmd, "bellperson parameter files: check, digest, generate"},
        {"circuit", cuzk_circuit_cmd, "the shape of a Filecoin circuit"},
        {"seal", cuzk_seal_cmd, "seal a small sector and write its C1 output"},
        {"porep", cuzk_porep_cmd, "PoRep C2 prove and verify from a C1 output"},
        {"post", cuzk_post_cmd, "Winning / Window PoSt prove and verify, vanilla proofs of sealed sectors"},
        {"snap", cuzk_snap_cmd, "SnapDeals: encode data into a CC sector, decode it, prove the update"},
        {NULL, NULL, NULL}};
    static const cli_group cuzk = {.prog = "cuzk", .subs = subs, .more_help = synopses};
    int rc = cli_impl_init("cuzk", &argc, argv); /* --impl, CUZK_IMPL: before any command */
    if (rc)
        return rc;
    return cli_dispatch(&cuzk, argc, argv);
}
