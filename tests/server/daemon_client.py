#!/usr/bin/python3
"""An independent cuzk.v1 client: Python's grpcio (Debian's python3-grpcio) with stubs generated from
proto/cuzk/v1/proving.proto by grpc_tools (python3-grpc-tools) at run time, so that the daemon is checked
against a gRPC stack we did not write.

  daemon_client.py fast  ADDR                 status, metrics, malformed requests, bad PoSt and SnapDeals ones
  daemon_client.py prove ADDR C1 OUT          one 2KiB PoRep through Prove; the proof written to OUT
  daemon_client.py post  ADDR KIND PROOF RANDOMNESS OUT VANILLA...
                                              one Winning / Window PoSt (KIND winning|window, PROOF the
                                              RegisteredPoStProof number, RANDOMNESS 64 hex digits) through
                                              Prove; the proof written to OUT
  daemon_client.py snap  ADDR PROOF COMM_R_OLD COMM_D_NEW COMM_R_NEW OUT VANILLA
                                              one SnapDeals update (PROOF the RegisteredUpdateProof number,
                                              commitments 64 hex digits, VANILLA a bincode Vec<PartitionProof>
                                              file, sent one PartitionProof per partition as Curio sends
                                              them) through Prove; the proof written to OUT
  daemon_client.py load  ADDR C1 LOG OUTDIR   32 jobs from 4 clients with mixed priorities and malformed
                                              requests interleaved: all complete, none lost or returned
                                              twice, queued jobs start in priority order (daemon LOG)
  daemon_client.py bind  ADDR WRAPPER MINER   on a daemon without parameters: an unknown registered_proof
                                              refused for every kind; PoRep requests for a C1 that is not
                                              the named sector's (the wrapper's SectorNum or the ticket
                                              changed, another miner, a sector number against the wrapper's
                                              with no miner id) fail with the reason, the true ones get past
                                              the sector checks to the missing parameters
  daemon_client.py srs   ADDR preload|evict CIRCUIT
                                              PreloadSRS or EvictSRS of one circuit; prints the outcome (the
                                              status code and details on an error), exit status 1 on an error
Exit status 0 when every check holds."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_ROOT = os.path.join(HERE, "..", "..", "proto")


def load_stubs():
    out = tempfile.mkdtemp(prefix="cuzk-pb-")
    atexit.register(shutil.rmtree, out, ignore_errors=True)  # the stubs are only needed while running
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I", PROTO_ROOT, "--python_out", out,
                    "--grpc_python_out", out, os.path.join(PROTO_ROOT, "cuzk", "v1", "proving.proto")],
                   check=True)
    sys.path.insert(0, out)
    from cuzk.v1 import proving_pb2, proving_pb2_grpc  # noqa: E402 (generated just now)
    return proving_pb2, proving_pb2_grpc


pb, pb_grpc = load_stubs()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def channel(addr):
    opts = [("grpc.max_send_message_length", 256 << 20), ("grpc.max_receive_message_length", 256 << 20)]
    return grpc.insecure_channel(addr, options=opts)


def rpc_error(fn, req):
    try:
        fn(req, timeout=30)
    except grpc.RpcError as e:
        return e.code(), e.details()
    return grpc.StatusCode.OK, ""


def fast(addr):
    ch = channel(addr)
    stub = pb_grpc.ProvingEngineStub(ch)
    st = stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    check(len(st.queues) == 4 and st.queues[0].proof_kind == "porep_c2", "GetStatus queues")
    m = stub.GetMetrics(pb.GetMetricsRequest(), timeout=30)
    check("cuzk_proofs_completed_total" in m.prometheus_text, "GetMetrics text")
    # bytes that are not a protobuf message at all
    raw = ch.unary_unary("/cuzk.v1.ProvingEngine/Prove", request_serializer=None, response_deserializer=None)
    code, details = rpc_error(raw, b"\xff\xff\xff\xff")
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "malformed" in details, "garbage → INVALID_ARGUMENT")
    # SnapDeals requests bad at submission (RegisteredUpdateProof 0: 2KiB, one partition): the whole
    # request is checked there
    comm = b"\1" * 32
    for what, fields, needle in [
            ("a 31-byte comm_r_new", dict(comm_r_old=comm, comm_d_new=comm, comm_r_new=comm[:31],
                                          vanilla_proofs=[b"x"]), "comm_r_new is 31 bytes"),
            ("two partition proofs", dict(comm_r_old=comm, comm_d_new=comm, comm_r_new=comm,
                                          vanilla_proofs=[b"x", b"y"]), "2 vanilla_proofs"),
            ("bincode that does not decode", dict(comm_r_old=comm, comm_d_new=comm, comm_r_new=comm,
                                                  vanilla_proofs=[b"x"]), "vanilla_proofs[0]")]:
        code, details = rpc_error(stub.SubmitProof, pb.SubmitProofRequest(proof_kind=pb.SNAP_DEALS_UPDATE,
                                                                          registered_proof=0, **fields))
        check(code == grpc.StatusCode.INVALID_ARGUMENT and needle in details,
              "SnapDeals %s → INVALID_ARGUMENT (%s: %s)" % (what, code, details))
    # PoSt requests bad at submission (RegisteredPoStProof: Winning 2KiB 0, Window 2KiB V1_1 10)
    rnd, one = b"\0" * 32, [b"x"]
    for what, fields, needle in [
            ("31 bytes of randomness", dict(proof_kind=pb.WINNING_POST, registered_proof=0, randomness=rnd[:31],
                                            vanilla_proofs=one), "randomness is 31 bytes"),
            ("a Window proof for a Winning job", dict(proof_kind=pb.WINNING_POST, registered_proof=10, randomness=rnd,
                                                      vanilla_proofs=one), "is a Window PoSt proof"),
            ("a seal proof number", dict(proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=18, randomness=rnd,
                                         vanilla_proofs=one), "not a registered PoSt proof"),
            ("two sectors for a Winning job", dict(proof_kind=pb.WINNING_POST, registered_proof=0, randomness=rnd,
                                                   vanilla_proofs=[b"x", b"y"]), "exactly 1")]:
        code, details = rpc_error(stub.SubmitProof, pb.SubmitProofRequest(miner_id=1000, **fields))
        check(code == grpc.StatusCode.INVALID_ARGUMENT and needle in details,
              "%s → INVALID_ARGUMENT (%s: %s)" % (what, code, details))
    code, details = rpc_error(stub.SubmitProof, pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT))
    check(code == grpc.StatusCode.INVALID_ARGUMENT, "empty vanilla proof → INVALID_ARGUMENT")
    code, _ = rpc_error(stub.AwaitProof, pb.AwaitProofRequest(job_id="no-such-job"))
    check(code == grpc.StatusCode.NOT_FOUND, "unknown job → NOT_FOUND")
    code, _ = rpc_error(stub.PreloadSRS, pb.PreloadSrsRequest(circuit_id="porep-1t"))
    check(code == grpc.StatusCode.INVALID_ARGUMENT, "unknown circuit → INVALID_ARGUMENT")
    unknown = ch.unary_unary("/cuzk.v1.ProvingEngine/Nothing", request_serializer=None, response_deserializer=None)
    code, _ = rpc_error(unknown, b"")
    check(code == grpc.StatusCode.UNIMPLEMENTED, "unknown method → UNIMPLEMENTED")
    st2 = stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    check(st2.uptime_seconds >= st.uptime_seconds, "still serving after the bad requests")


def submit_request(c1, request_id="", priority=pb.PRIORITY_UNSPECIFIED):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.POREP_SEAL_COMMIT, priority=priority,
                                 vanilla_proof=c1, sector_number=wrapped_sector(c1), miner_id=1000)


def wrapped_sector(c1):
    prefix = b'{"SectorNum":'
    return int(c1[len(prefix):].split(b",")[0]) if c1.startswith(prefix) else 1


def prove(addr, c1_path, out):
    c1 = open(c1_path, "rb").read()
    stub = pb_grpc.ProvingEngineStub(channel(addr))
    r = stub.Prove(pb.ProveRequest(submit=submit_request(c1, "python-prove")), timeout=1800).result
    check(r.status == pb.AwaitProofResponse.COMPLETED, "Prove: %s %s" % (r.status, r.error_message))
    check(r.job_id == "python-prove" and len(r.proof) == 192, "Prove: job id and a 192-byte proof")
    check(r.total_ms >= r.gpu_compute_ms > 0 and r.synthesis_ms > 0, "Prove: timings filled")
    with open(out, "wb") as f:
        f.write(r.proof)


def post(addr, kind, proof, randomness, out, vanilla):
    req = pb.SubmitProofRequest(request_id="python-post", registered_proof=int(proof), miner_id=1000,
                                proof_kind=pb.WINNING_POST if kind == "winning" else pb.WINDOW_POST_PARTITION,
                                randomness=bytes.fromhex(randomness),
                                vanilla_proofs=[open(v, "rb").read() for v in vanilla])
    stub = pb_grpc.ProvingEngineStub(channel(addr))
    r = stub.Prove(pb.ProveRequest(submit=req), timeout=600).result
    check(r.status == pb.AwaitProofResponse.COMPLETED, "Prove %s: %s %s" % (kind, r.status, r.error_message))
    check(r.job_id == "python-post" and len(r.proof) == 192, "Prove %s: job id and a 192-byte proof" % kind)
    with open(out, "wb") as f:
        f.write(r.proof)


def partition_proofs(buf):
    """A bincode Vec<PartitionProof> cut into its PartitionProofs, by the serde layout of
    storage-proofs-update vanilla.rs and storage-proofs-core merkle/proof.rs (bincode 1: little-endian
    integers, u64 sequence lengths, u32 enum tags), written here apart from the daemon's decoder."""
    def u64(o):
        return int.from_bytes(buf[o:o + 8], "little"), o + 8

    def path(o):  # Vec<(Vec<H>, usize)>: per level its siblings and the index
        levels, o = u64(o)
        for _ in range(levels):
            n, o = u64(o)
            o += 32 * n + 8
        return o

    def merkle_proof(o):  # ProofData: Single(root, leaf, path), Sub(base, sub, root, leaf), Top(base, sub, top, ...)
        kind = int.from_bytes(buf[o:o + 4], "little")
        o += 4
        if kind == 0:
            return path(o + 64)
        for _ in range(kind + 1):
            o = path(o)
        return o + 64

    count, o = u64(0)
    parts = []
    for _ in range(count):
        start = o + 32                     # comm_c
        apex, o = u64(start)
        challenges, o = u64(o + 32 * apex)
        for _ in range(3 * challenges):    # tree R old, tree D new, tree R new
            o = merkle_proof(o)
        parts.append(buf[start - 32:o])
    check(o == len(buf) and count > 0, "the vanilla file is a Vec<PartitionProof> (%d proofs)" % count)
    return parts


def snap(addr, proof, r_old, d_new, r_new, out, vanilla):
    parts = partition_proofs(open(vanilla, "rb").read())
    req = pb.SubmitProofRequest(request_id="python-snap", registered_proof=int(proof),
                                proof_kind=pb.SNAP_DEALS_UPDATE, vanilla_proofs=parts,
                                comm_r_old=bytes.fromhex(r_old), comm_d_new=bytes.fromhex(d_new),
                                comm_r_new=bytes.fromhex(r_new))
    stub = pb_grpc.ProvingEngineStub(channel(addr))
    # the same request with the partition proof cut short: refused at submission
    bad = pb.SubmitProofRequest()
    bad.CopyFrom(req)
    bad.vanilla_proofs[0] = parts[0][:-1]
    code, details = rpc_error(stub.SubmitProof, bad)
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "vanilla_proofs[0]" in details,
          "SnapDeals with a truncated partition proof → INVALID_ARGUMENT (%s: %s)" % (code, details))
    r = stub.Prove(pb.ProveRequest(submit=req), timeout=1800).result
    check(r.status == pb.AwaitProofResponse.COMPLETED, "Prove snap: %s %s" % (r.status, r.error_message))
    check(r.job_id == "python-snap" and len(r.proof) == 192 * len(parts),
          "Prove snap: job id and 192 bytes per partition")
    with open(out, "wb") as f:
        f.write(r.proof)


def bind(addr, wrapper_path, miner):
    import base64
    import json
    wrapper = open(wrapper_path, "rb").read()
    sector = wrapped_sector(wrapper)
    stub = pb_grpc.ProvingEngineStub(channel(addr))
    unknown = (1 << 64) - 1
    comm, rnd = b"\1" * 32, b"\0" * 32
    for what, fields in [
            ("PoRep", dict(proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=wrapper, sector_number=sector)),
            ("Winning PoSt", dict(proof_kind=pb.WINNING_POST, randomness=rnd, vanilla_proofs=[b"x"])),
            ("Window PoSt", dict(proof_kind=pb.WINDOW_POST_PARTITION, randomness=rnd, vanilla_proofs=[b"x"])),
            ("SnapDeals", dict(proof_kind=pb.SNAP_DEALS_UPDATE, comm_r_old=comm, comm_d_new=comm, comm_r_new=comm,
                               vanilla_proofs=[b"x"]))]:
        code, details = rpc_error(stub.SubmitProof, pb.SubmitProofRequest(registered_proof=unknown, miner_id=miner,
                                                                          **fields))
        check(code == grpc.StatusCode.INVALID_ARGUMENT and str(unknown) in details,
              "%s with registered_proof 2^64-1 → INVALID_ARGUMENT (%s: %s)" % (what, code, details))
    code, details = rpc_error(stub.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=wrapper, registered_proof=8, sector_size=2048))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "sector_size" in details,
          "PoRep registered_proof 8 (32GiB) with sector_size 2048 → INVALID_ARGUMENT (%s: %s)" % (code, details))

    w = json.loads(wrapper)
    c1 = json.loads(base64.b64decode(w["Phase1Out"]))
    c1["ticket"][0] ^= 1
    ticket = dict(w, Phase1Out=base64.b64encode(json.dumps(c1, separators=(",", ":")).encode()).decode())
    moved = dict(w, SectorNum=sector + 1)

    def outcome(job, c1_bytes, sector_number, miner_id, registered_proof=0):
        req = pb.SubmitProofRequest(request_id=job, proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=c1_bytes,
                                    sector_number=sector_number, miner_id=miner_id, sector_size=2048,
                                    registered_proof=registered_proof)
        r = stub.Prove(pb.ProveRequest(submit=req), timeout=120).result
        return r.status, r.error_message

    def enc(d):
        return json.dumps(d, separators=(",", ":")).encode()

    for job, body, num, m, needle in [
            ("bind-sectornum", enc(moved), sector + 1, miner, "replica_id"),
            ("bind-sectornum-nominer", enc(moved), sector, 0, "SectorNum"),
            ("bind-ticket", enc(ticket), sector, miner, "replica_id"),
            ("bind-miner", wrapper, sector, miner + 1, "replica_id"),
            ("bind-true", wrapper, sector, miner, "missing parameters"),
            ("bind-true-nominer", wrapper, sector, 0, "missing parameters")]:
        status, message = outcome(job, body, num, m)
        check(status == pb.AwaitProofResponse.FAILED and needle in message,
              "%s: FAILED with '%s' (%s: %s)" % (job, needle, status, message))
    status, message = outcome("bind-true-proof", wrapper, sector, miner, registered_proof=5)
    check(status == pb.AwaitProofResponse.FAILED and "missing parameters" in message,
          "bind-true-proof: the C1's own registered proof (%s: %s)" % (status, message))
    status, message = outcome("bind-other-proof", wrapper, sector, miner, registered_proof=10)
    check(status == pb.AwaitProofResponse.FAILED and "but the C1 output is a" in message,
          "bind-other-proof: another 2KiB seal proof than the C1's (%s: %s)" % (status, message))


PRIORITIES = [pb.LOW, pb.NORMAL, pb.HIGH, pb.CRITICAL]


def load(addr, c1_path, log_path, outdir):
    c1 = open(c1_path, "rb").read()
    stubs = [pb_grpc.ProvingEngineStub(channel(addr)) for _ in range(4)]
    results, lock = {}, threading.Lock()
    # a first job keeps the daemon busy while the others queue up behind it
    blocker = threading.Thread(target=lambda: results.__setitem__(
        "load-00", stubs[0].Prove(pb.ProveRequest(submit=submit_request(c1, "load-00", pb.NORMAL)),
                                  timeout=3600).result))
    blocker.start()
    time.sleep(1.0)
    ids = ["load-%02d" % i for i in range(1, 32)]

    def client(k):
        raw = channel(addr).unary_unary("/cuzk.v1.ProvingEngine/SubmitProof", request_serializer=None,
                                        response_deserializer=None)
        for i, job in enumerate(ids):
            if i % 4 != k:
                continue
            resp = stubs[k].SubmitProof(submit_request(c1, job, PRIORITIES[(i * 7) % 4]), timeout=60)
            check(resp.job_id == job, "SubmitProof echoes the request id")
            code, _ = rpc_error(raw, b"\x0a\xff")  # truncated: a malformed request between good ones
            check(code == grpc.StatusCode.INVALID_ARGUMENT, "malformed request → INVALID_ARGUMENT")

    threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    def waiter(k):
        for i, job in enumerate(ids):
            if i % 4 == k:
                r = stubs[k].AwaitProof(pb.AwaitProofRequest(job_id=job), timeout=3600)
                with lock:
                    check(job not in results, "a result returned twice: " + job)
                    results[job] = r

    threads = [threading.Thread(target=waiter, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    blocker.join()
    check(len(results) == 32, "32 results, got %d" % len(results))
    for job, r in sorted(results.items()):
        check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 192,
              "%s: %s %s" % (job, r.status, r.error_message))
        with open(os.path.join(outdir, job + ".proof"), "wb") as f:
            f.write(r.proof)
    code, _ = rpc_error(stubs[0].AwaitProof, pb.AwaitProofRequest(job_id="load-05"))
    check(code == grpc.StatusCode.NOT_FOUND, "a delivered result is not delivered again")
    check_priority_order(log_path, {job: PRIORITIES[(i * 7) % 4] for i, job in enumerate(ids)})


def check_priority_order(log_path, prio):
    """Jobs that were all queued when one of them started must start in priority order."""
    submit, start = {}, {}
    for n, line in enumerate(open(log_path, errors="replace")):
        f = line.rstrip("\n").split(",")
        if len(f) >= 4 and f[0] == "TIMELINE" and f[3] in prio:
            if f[2] == "SUBMIT":
                submit[f[3]] = n
            elif f[2] == "START":
                start[f[3]] = n
    check(len(start) == len(prio), "every job started once (%d of %d)" % (len(start), len(prio)))
    for a in prio:
        for b in prio:
            if a in start and b in start and submit[b] < start[a] and prio[b] > prio[a]:
                check(start[b] < start[a], "%s (priority %d) started before %s (priority %d), both queued"
                      % (a, prio[a], b, prio[b]))


def srs(addr, what, circuit):
    stub = pb_grpc.ProvingEngineStub(channel(addr))
    try:
        if what == "preload":
            r = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id=circuit), timeout=120)
            print("preload %s: OK, %s" % (circuit, "already loaded" if r.already_loaded
                                          else "loaded in %d ms" % r.load_time_ms))
        else:
            r = stub.EvictSRS(pb.EvictSrsRequest(circuit_id=circuit), timeout=30)
            print("evict %s: OK, %s" % (circuit, "evicted" if r.was_loaded else "was not loaded"))
    except grpc.RpcError as e:
        print("%s %s: %s: %s" % (what, circuit, e.code().name, e.details()))
        failures.append(what)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mode, addr = sys.argv[1], sys.argv[2]
    if mode == "fast":
        fast(addr)
    elif mode == "prove":
        prove(addr, sys.argv[3], sys.argv[4])
    elif mode == "snap":
        snap(addr, sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8])
    elif mode == "post":
        post(addr, sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:])
    elif mode == "load":
        load(addr, sys.argv[3], sys.argv[4], sys.argv[5])
    elif mode == "bind":
        bind(addr, sys.argv[3], int(sys.argv[4]))
    elif mode == "srs":
        srs(addr, sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
    print("daemon_client %s: %s" % (mode, "%d failure(s)" % len(failures) if failures else "all checks passed"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
