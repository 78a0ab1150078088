#!/usr/bin/python3
"""The daemon's transport under what a shared host and careless or hostile clients do to it, through the
independent Python grpcio client (daemon_client.py's stubs and checks):

  daemon_edge.py text  ADDR            text fields: a job failing on a C1 of b'\\xff' or b'a\\0b' is read by
                                       Python's protobuf (which refuses strings that are not UTF-8) through
                                       AwaitProof and Prove; ids with a NUL, and text that is not UTF-8, are
                                       INVALID_ARGUMENT at every method that takes one
  daemon_edge.py input ADDR            a daemon run with every daemon.max_input_* at 1MiB and Winning PoSt at
                                       1KiB: inputs over their kind's limit INVALID_ARGUMENT, a message over
                                       the largest limit RESOURCE_EXHAUSTED, smaller ones taken
  daemon_edge.py calls ADDR PID CAP    CAP = daemon.max_concurrent_calls: 300 AwaitProof calls held open at
                                       once; those beyond the cap are RESOURCE_EXHAUSTED and the daemon's
                                       thread count (/proc/PID/status) stays within the cap; released, the
                                       admitted ones are answered and the threads go
  daemon_edge.py http  PORT PID        1500 idle HTTP connections: GET /status still answers at once, the
                                       daemon's descriptors stay bounded, gRPC still answers
Exit status 0 when every check holds."""
import os
import resource
import socket
import sys
import threading
import time
import urllib.request

import grpc

sys.argv, _args = sys.argv[:1], sys.argv[1:]  # daemon_client reads no arguments at import
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_client as dc  # noqa: E402 (the generated stubs and the checks)

pb, pb_grpc, check = dc.pb, dc.pb_grpc, dc.check


def code_of(fn, req, **kw):
    try:
        fn(req, timeout=30, **kw)
    except grpc.RpcError as e:
        return e.code(), e.details()
    return grpc.StatusCode.OK, ""


def field(num, data):
    """A length-delimited protobuf field (num < 16), written by hand: Python strings cannot hold bytes
    that are not UTF-8."""
    return bytes([num << 3 | 2, len(data)]) + data


def text(addr):
    ch = dc.channel(addr)
    stub = pb_grpc.ProvingEngineStub(ch)
    for i, c1 in enumerate([b"\xff", b"a\x00b"]):
        rid = "text-%d" % i
        stub.SubmitProof(pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=c1),
                         timeout=30)
        try:
            r = stub.AwaitProof(pb.AwaitProofRequest(job_id=rid, timeout_ms=20000), timeout=30)
            check(r.status == pb.AwaitProofResponse.FAILED, "C1 %r: FAILED" % c1)
            print("C1 %r: %s" % (c1, r.error_message))
            check(c1 != b"\xff" or "\\xFF" in r.error_message, "the byte 0xff written as \\xFF")
        except grpc.RpcError as e:
            check(False, "C1 %r: AwaitProof: %s %s" % (c1, e.code(), e.details()))
        try:
            r = stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
                proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=c1)), timeout=30)
            check(r.result.status == pb.AwaitProofResponse.FAILED, "Prove C1 %r: FAILED" % c1)
        except grpc.RpcError as e:
            check(False, "C1 %r: Prove: %s %s" % (c1, e.code(), e.details()))

    # a NUL inside an id: refused, never cut short to another id
    nul = "abc\x00def"
    calls = [(stub.SubmitProof, pb.SubmitProofRequest(request_id=nul, proof_kind=pb.POREP_SEAL_COMMIT,
                                                       vanilla_proof=b"{}")),
             (stub.Prove, pb.ProveRequest(submit=pb.SubmitProofRequest(request_id=nul, proof_kind=pb.POREP_SEAL_COMMIT,
                                                                        vanilla_proof=b"{}"))),
             (stub.AwaitProof, pb.AwaitProofRequest(job_id=nul, timeout_ms=1)),
             (stub.CancelProof, pb.CancelProofRequest(job_id=nul)),
             (stub.PreloadSRS, pb.PreloadSrsRequest(circuit_id="porep-2k\x00x")),
             (stub.EvictSRS, pb.EvictSrsRequest(circuit_id="porep-2k\x00x"))]
    for fn, req in calls:
        code, details = code_of(fn, req)
        check(code == grpc.StatusCode.INVALID_ARGUMENT and "NUL" in details,
              "%s with a NUL in its id: %s %s" % (type(req).__name__, code, details))
    code, _ = code_of(stub.AwaitProof, pb.AwaitProofRequest(job_id="abc", timeout_ms=1))
    check(code == grpc.StatusCode.NOT_FOUND, "abc is not abc\\0def: %s" % code)
    # text that is not UTF-8 (written by hand)
    raw = ch.unary_unary("/cuzk.v1.ProvingEngine/PreloadSRS", request_serializer=None, response_deserializer=None)
    code, details = code_of(raw, field(1, b"porep-\xff"))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "not UTF-8" in details, "circuit id 0xff: %s %s" % (code, details))
    raw = ch.unary_unary("/cuzk.v1.ProvingEngine/SubmitProof", request_serializer=None, response_deserializer=None)
    code, details = code_of(raw, field(1, b"id-\xc0\x80") + field(10, b"{}"))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "request_id" in details, "overlong NUL: %s %s" % (code, details))


def input_limits(addr):
    stub = pb_grpc.ProvingEngineStub(dc.channel(addr))
    rnd = b"\x01" * 32
    code, details = code_of(stub.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.WINNING_POST, registered_proof=0, vanilla_proofs=[b"\0" * 1000, b"\0" * 1000], randomness=rnd))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "bytes of proof input for WINNING_POST" in details,
          "Winning over 1KiB: %s %s" % (code, details))
    code, details = code_of(stub.SubmitProof, pb.SubmitProofRequest(
        request_id="porep-1.5M", proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=b"{" * (3 << 19)))
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "1 MiB" in details, "PoRep over 1MiB: %s %s" % (code, details))
    code, details = code_of(stub.SubmitProof, pb.SubmitProofRequest(
        request_id="porep-3M", proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=b"{" * (3 << 20)))
    check(code == grpc.StatusCode.RESOURCE_EXHAUSTED, "a message over every limit: %s %s" % (code, details))
    code, details = code_of(stub.SubmitProof, pb.SubmitProofRequest(
        request_id="porep-small", proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=b"{" * 1000))
    check(code == grpc.StatusCode.OK, "a PoRep within its limit: %s %s" % (code, details))


def threads_of(pid):
    with open("/proc/%s/status" % pid) as f:
        for line in f:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return -1


def calls(addr, pid, cap):
    cap = int(cap)
    ch = dc.channel(addr)
    stub = pb_grpc.ProvingEngineStub(ch)
    stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    base = threads_of(pid)
    release = threading.Event()

    def held():  # the request comes only when released: the call holds its place meanwhile
        release.wait()
        yield pb.AwaitProofRequest(job_id="nobody-submitted-this", timeout_ms=1).SerializeToString()

    mc = ch.stream_unary("/cuzk.v1.ProvingEngine/AwaitProof", request_serializer=None, response_deserializer=None)
    n = 300
    futs = [mc.future(held(), timeout=120) for _ in range(n)]
    end = time.time() + 30
    while time.time() < end and sum(f.done() for f in futs) < n - cap:
        time.sleep(0.05)
    time.sleep(0.5)
    during = threads_of(pid)
    refused = [f for f in futs if f.done() and f.code() == grpc.StatusCode.RESOURCE_EXHAUSTED]
    print("%d AwaitProof held at once, cap %d: %d refused; daemon threads %d -> %d" % (n, cap, len(refused), base,
                                                                                      during))
    check(len(refused) == n - cap, "%d refused, want %d" % (len(refused), n - cap))
    check(during <= base + cap + 8, "threads %d -> %d with a cap of %d" % (base, during, cap))
    if refused:
        check("try again later" in refused[0].details(), "the refusal says why: %s" % refused[0].details())
    release.set()
    admitted = [f for f in futs if f not in refused]
    for f in admitted:
        check(f.code() == grpc.StatusCode.NOT_FOUND, "an admitted call answered: %s" % f.code())
    end = time.time() + 10
    while time.time() < end and threads_of(pid) > base + 4:
        time.sleep(0.1)
    after = threads_of(pid)
    print("released: daemon threads %d" % after)
    check(after <= base + 4, "threads back near %d: %d" % (base, after))
    st = stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    check(len(st.queues) == 4, "GetStatus after the crowd")


def http(port, pid):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    url = "http://127.0.0.1:%s/status" % port
    fds_base = len(os.listdir("/proc/%s/fd" % pid))
    crowd = []
    for _ in range(1500):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", int(port)))
            crowd.append(s)
        except OSError as e:
            check(False, "connection %d: %s" % (len(crowd), e))
            break
    time.sleep(0.5)
    t0 = time.time()
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            ok = r.status == 200 and b"pipelines" in r.read()
    except OSError as e:
        ok = False
        print("GET /status:", e)
    dt = time.time() - t0
    fds = len(os.listdir("/proc/%s/fd" % pid))
    print("GET /status behind %d idle connections: %s in %.3f s; daemon descriptors %d -> %d" %
          (len(crowd), "200" if ok else "no answer", dt, fds_base, fds))
    check(ok and dt < 2, "GET /status behind 1500 idle connections")
    check(fds < fds_base + 200, "descriptors %d -> %d" % (fds_base, fds))
    for s in crowd:
        s.close()


def main():
    mode = _args[0] if _args else ""
    if mode == "text" and len(_args) == 2:
        text(_args[1])
    elif mode == "input" and len(_args) == 2:
        input_limits(_args[1])
    elif mode == "calls" and len(_args) == 4:
        calls(_args[1], _args[2], _args[3])
    elif mode == "http" and len(_args) == 3:
        http(_args[1], _args[2])
    else:
        print(__doc__)
        sys.exit(2)
    if dc.failures:
        print("%d check(s) failed" % len(dc.failures))
        sys.exit(1)
    print("daemon_edge.py %s: all checks passed" % mode)


if __name__ == "__main__":
    main()
