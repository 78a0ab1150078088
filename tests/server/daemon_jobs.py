#!/usr/bin/python3
"""Job identity and the queue through the daemon, with the independent Python grpcio client
(daemon_client.py's stubs): 2KiB Window PoSt jobs held in the queue by a memory "gate".

  daemon_jobs.py ADDR LOG VANILLA RANDOMNESS

The daemon must run with a memory budget that holds the Window PoSt parameters and one partition but
not those and the Winning PoSt parameters besides (test_daemon_jobs.sh: 115 MB), parameters idle for
an hour before eviction, and scheduler.max_queued = 3. While winning-2k is preloaded, the first Window
job waits for memory and every later one stays queued; EvictSRS winning-2k lets them run. Checks:
  - a job submitted by A is not cancelled when B's Prove of the same id goes away (its deadline);
    A's AwaitProof gets the proof;
  - a job only Prove submitted is cancelled when its client goes away (its end stays awaitable);
  - submit, cancel, submit again starts a new job, which completes; so does a resubmitted FAILED one;
  - the queue cap: one job more is RESOURCE_EXHAUSTED, a known id is not a new job;
  - AwaitProof's timeout_ms too large for nanoseconds waits (no wrapped, past deadline).
LOG is the daemon's log (TIMELINE lines). Exit status 0 when every check holds."""
import os
import sys
import time

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_client as dc  # noqa: E402 (its stubs are generated on import)

pb, pb_grpc, check = dc.pb, dc.pb_grpc, dc.check
WINDOW_2K_V1_1 = 10  # RegisteredPoStProof StackedDrgWindow2KiBV1_1


def window(rid, vanilla, rnd):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINDOW_POST_PARTITION,
                                 registered_proof=WINDOW_2K_V1_1, miner_id=1000, randomness=rnd,
                                 vanilla_proofs=[vanilla])


def window_queue(stub):
    st = stub.GetStatus(pb.GetStatusRequest(), timeout=30)
    q = [q for q in st.queues if q.proof_kind == "window_post"][0]
    return q.pending, q.in_progress


def wait_for(what, cond, seconds=20):
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    check(False, "timed out waiting for " + what)
    return False


def log_lines(log, event, job):
    prefix = ",%s,%s," % (event, job)
    return [line for line in open(log, errors="replace") if line.startswith("TIMELINE,") and prefix in line]


def code_of(fn, req, timeout):
    try:
        return fn(req, timeout=timeout), grpc.StatusCode.OK
    except grpc.RpcError as e:
        return None, e.code()


def await_proof(stub, job, timeout_ms):
    """The AwaitProofResponse; a gRPC error is a failed check, answered as an UNKNOWN result."""
    r, code = code_of(stub.AwaitProof, pb.AwaitProofRequest(job_id=job, timeout_ms=timeout_ms),
                      timeout_ms / 1000 + 30)
    check(code == grpc.StatusCode.OK, "AwaitProof(%s): %s" % (job, code))
    return r if r is not None else pb.AwaitProofResponse(error_message=str(code))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    addr, log, vanilla_path, rnd_hex = sys.argv[1:]
    vanilla, rnd = open(vanilla_path, "rb").read(), bytes.fromhex(rnd_hex)
    stub = pb_grpc.ProvingEngineStub(dc.channel(addr))

    # the gate: Winning's parameters take the memory a Window partition needs
    stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="winning-2k"), timeout=120)
    stub.SubmitProof(window("gate", vanilla, rnd), timeout=30)
    wait_for("the gate job to start", lambda: window_queue(stub) == (0, 1))

    # issue: A's SubmitProof, B's Prove of the same id with a deadline: B's departure cancelled A's job
    r = stub.SubmitProof(window("shared1", vanilla, rnd), timeout=30)
    check(r.job_id == "shared1" and r.queue_position == 0, "A: shared1 queued")
    _, code = code_of(stub.Prove, pb.ProveRequest(submit=window("shared1", vanilla, rnd)), 0.5)
    check(code == grpc.StatusCode.DEADLINE_EXCEEDED, "B: Prove(shared1) → DEADLINE_EXCEEDED (%s)" % code)
    time.sleep(0.3)  # the daemon sees B gone within ~100 ms
    check(window_queue(stub) == (1, 1) and not log_lines(log, "CANCEL", "shared1"),
          "shared1 still queued after B went away (%s)" % (window_queue(stub),))

    # a job only Prove submitted: cancelled once its client is gone, its end awaitable
    _, code = code_of(stub.Prove, pb.ProveRequest(submit=window("solo", vanilla, rnd)), 0.5)
    check(code == grpc.StatusCode.DEADLINE_EXCEEDED, "Prove(solo) → DEADLINE_EXCEEDED (%s)" % code)
    wait_for("solo to be cancelled", lambda: log_lines(log, "CANCEL", "solo"))
    a = await_proof(stub, "solo", 5000)
    check(a.status == pb.AwaitProofResponse.CANCELLED and "went away" in a.error_message,
          "solo: CANCELLED, its client went away (%s %s)" % (a.status, a.error_message))

    # issue: submit, cancel, submit again did nothing (and AwaitProof said CANCELLED at once)
    stub.SubmitProof(window("x", vanilla, rnd), timeout=30)
    c = stub.CancelProof(pb.CancelProofRequest(job_id="x"), timeout=30)
    check(not c.was_running, "x cancelled while queued")
    r = stub.SubmitProof(window("x", vanilla, rnd), timeout=30)
    check(r.queue_position == 1 and window_queue(stub) == (2, 1), "x queued again behind shared1 (%d, %s)"
          % (r.queue_position, window_queue(stub)))

    # the queue cap (3): shared1, x, q3 wait; q4 is refused; a known id is no new job
    stub.SubmitProof(window("q3", vanilla, rnd), timeout=30)
    _, code = code_of(stub.SubmitProof, window("q4", vanilla, rnd), 30)
    check(code == grpc.StatusCode.RESOURCE_EXHAUSTED, "q4 with 3 queued → RESOURCE_EXHAUSTED (%s)" % code)
    r = stub.SubmitProof(window("shared1", vanilla, rnd), timeout=30)
    check(r.job_id == "shared1" and window_queue(stub) == (3, 1), "shared1 again: the same job")

    # a timeout whose nanoseconds pass 2^64 is a long wait, not an immediate TIMEOUT
    for t in (18446744073710, 1 << 63, (1 << 64) - 1):
        t0 = time.time()
        _, code = code_of(stub.AwaitProof, pb.AwaitProofRequest(job_id="q3", timeout_ms=t), 0.3)
        check(code == grpc.StatusCode.DEADLINE_EXCEEDED and time.time() - t0 >= 0.25,
              "AwaitProof timeout_ms=%d waits (%s after %.2f s)" % (t, code, time.time() - t0))

    # open the gate (the gate job and q3 cancelled: fewer proofs to wait for): A gets shared1's proof
    for job in ("gate", "q3"):
        stub.CancelProof(pb.CancelProofRequest(job_id=job), timeout=30)
    e = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="winning-2k"), timeout=30)
    check(e.was_loaded, "winning-2k evicted")
    for job in ("shared1", "x"):
        a = await_proof(stub, job, 120000)
        check(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == 192,
              "%s: COMPLETED with a proof (%s %s)" % (job, a.status, a.error_message))
    check(len(log_lines(log, "SUBMIT", "x")) == 2, "x: two jobs")

    # a FAILED job's id starts a new job
    stub.SubmitProof(window("f", vanilla[:100], rnd), timeout=30)
    a = await_proof(stub, "f", 60000)
    check(a.status == pb.AwaitProofResponse.FAILED, "f (truncated): FAILED (%s)" % a.status)
    stub.SubmitProof(window("f", vanilla[:100], rnd), timeout=30)
    a = await_proof(stub, "f", 60000)
    check(a.status == pb.AwaitProofResponse.FAILED, "f failed again")
    r = stub.Prove(pb.ProveRequest(submit=window("f", vanilla, rnd)), timeout=120).result
    check(r.status == pb.AwaitProofResponse.COMPLETED and len(log_lines(log, "SUBMIT", "f")) == 3,
          "f resubmitted whole: a third job, COMPLETED (%s %s)" % (r.status, r.error_message))

    print("daemon_jobs: %s" % ("%d failure(s)" % len(dc.failures) if dc.failures else "all checks passed"))
    sys.exit(1 if dc.failures else 0)


if __name__ == "__main__":
    main()
