#!/usr/bin/python3
"""The daemon's soak: several clients at once, for minutes, doing what a shared production host does to
cuzk-daemon, through the independent Python grpcio client (daemon_client.py's stubs). Run by
scripts/soak-daemon.sh, which starts the daemon and makes the inputs.

  daemon_soak.py ADDR PID WORK CUZK MINUTES [CLIENTS]

WORK holds win.vproof (a 2KiB Winning PoSt vanilla proof), w0.vproof and w1.vproof (a 2KiB Window
partition of two sectors), rnd (their randomness, hex), params/ (the daemon's parameter directory, a
copy: one of its files is replaced during the run) and proofs/ (written here). CUZK is the offline tool.

Each client loops over, at random: valid Winning / Window jobs through Prove and through
SubmitProof + AwaitProof; Prove with a deadline too short to finish (the job is cancelled or completes,
and stays awaitable); SubmitProof + CancelProof; the same id submitted twice (one job) and submitted again
after a cancel (a new job); malformed requests (truncated bincode and JSON, b'\\xff', a NUL in the id, an
unknown registered_proof, inputs over the limits, bytes that are not protobuf, randomness the vanilla
proofs were not made for); EvictSRS and PreloadSRS. Once, a third of the way in, the Winning parameter
file is truncated while a preload reads it and then put back atomically (rename).

Checks at the end: every proof returned verifies offline (`cuzk post verify`); every accepted id got one
final answer and no COMPLETED result was handed over twice; malformed requests got INVALID_ARGUMENT or
RESOURCE_EXHAUSTED at once, or a FAILED result with the reason; valid jobs failed only while the parameter
file was being replaced; the daemon is alive; its RSS and thread count (/proc/PID/status), taken with
both circuits loaded and no call in flight after a warm-up (every action once, then the clients at once
for a tenth of the time, 10 to 60 s), are back within the margins below. Prints a
summary; exit status 1 on any violation."""
import collections
import os
import random
import subprocess
import sys
import threading
import time

import grpc

sys.argv, _args = sys.argv[:1], sys.argv[1:]  # daemon_client reads no arguments at import
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_client as dc  # noqa: E402 (the generated stubs)

pb, pb_grpc = dc.pb, dc.pb_grpc
WINNING_2K, WINDOW_2K_V1_1 = 0, 10  # RegisteredPoStProof
RSS_MARGIN = (0.25, 128 << 20)  # end RSS within +25% or +128 MiB of the baseline, whichever is larger
THREAD_MARGIN = 4                # end threads within the baseline + 4
PATIENCE = 900                   # seconds any one call may take (a paused host: minutes)

S = grpc.StatusCode
violations = []
lock = threading.Lock()
outcomes = collections.Counter()   # "<action>: <outcome>" -> count
answers = {}                       # accepted id -> final statuses seen (one expected)
completed_ids = collections.Counter()
to_verify = []                     # (kind, proof path)
replace_window = [None, None]      # when the parameter file was short: [start, end] (time.time())


def violation(what):
    with lock:
        violations.append(what)
    print("VIOLATION:", what, flush=True)


def count(what):
    with lock:
        outcomes[what] += 1


def proc_status(pid):
    vals = {}
    with open("/proc/%s/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "Threads"):
                vals[k] = int(v.split()[0])
    return vals["VmRSS"] << 10, vals["Threads"]


class Soak:
    def __init__(self, addr, pid, work, cuzk):
        self.addr, self.pid, self.work, self.cuzk = addr, pid, work, cuzk
        self.win = open(os.path.join(work, "win.vproof"), "rb").read()
        self.w = [open(os.path.join(work, "w%d.vproof" % i), "rb").read() for i in range(2)]
        self.rnd = bytes.fromhex(open(os.path.join(work, "rnd")).read().strip())
        self.proofs = os.path.join(work, "proofs")
        os.makedirs(self.proofs, exist_ok=True)
        self.seq = 0
        self.stop = threading.Event()
        self.no_winning = threading.Event()  # set while the Winning parameter file is replaced
        self.peak = (0, 0)

    def new_id(self, what):
        with lock:
            self.seq += 1
            return "soak-%s-%d" % (what, self.seq)

    def valid(self, rid, kind=None):
        kind = kind or ("window" if self.no_winning.is_set() else random.choice(["winning", "window"]))
        if kind == "winning":
            req = pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST, registered_proof=WINNING_2K,
                                        miner_id=1000, randomness=self.rnd, vanilla_proofs=[self.win])
        else:
            req = pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINDOW_POST_PARTITION,
                                        registered_proof=WINDOW_2K_V1_1, miner_id=1000, randomness=self.rnd,
                                        vanilla_proofs=self.w)
        return kind, req

    # --- the end of a valid job: one final answer, a COMPLETED proof kept for the offline check
    def final(self, action, kind, rid, r, cancelled_ok=False):
        st = pb.AwaitProofResponse.Status.Name(r.status)
        with lock:
            answers.setdefault(rid, []).append(st)
        if r.status == pb.AwaitProofResponse.COMPLETED:
            with lock:
                completed_ids[rid] += 1
            if len(r.proof) != 192 or r.job_id != rid:
                violation("%s %s: COMPLETED with a %d-byte proof, job id %r" % (action, rid, len(r.proof), r.job_id))
            else:
                path = os.path.join(self.proofs, "%s.%s.proof" % (rid, kind))
                with open(path, "wb") as f:
                    f.write(r.proof)
                with lock:
                    to_verify.append((kind, path))
        elif r.status == pb.AwaitProofResponse.CANCELLED and cancelled_ok:
            pass
        elif r.status == pb.AwaitProofResponse.FAILED and self.in_replace_window(r.error_message):
            st = "FAILED (parameter file replaced)"
        else:
            violation("%s %s (%s): %s %s" % (action, rid, kind, st, r.error_message))
        count("%s: %s" % (action, st))

    def in_replace_window(self, msg):
        start, end = replace_window
        now = time.time()
        return start is not None and now >= start and (end is None or now <= end + 120) and ".params" in msg

    def await_final(self, stub, rid):
        """AwaitProof until the job ends (TIMEOUT answers are waited again)."""
        end = time.time() + PATIENCE
        while time.time() < end:
            r = stub.AwaitProof(pb.AwaitProofRequest(job_id=rid, timeout_ms=20000), timeout=PATIENCE)
            if r.status != pb.AwaitProofResponse.TIMEOUT:
                return r
        raise RuntimeError("%s: no end in %d s" % (rid, PATIENCE))

    def submit(self, stub, req):
        """SubmitProof, retried while the daemon says RESOURCE_EXHAUSTED (a full queue: back off)."""
        for _ in range(100):
            try:
                return stub.SubmitProof(req, timeout=PATIENCE)
            except grpc.RpcError as e:
                if e.code() != S.RESOURCE_EXHAUSTED:
                    raise
                count("backed off (RESOURCE_EXHAUSTED)")
                time.sleep(1)
        raise RuntimeError("%s: RESOURCE_EXHAUSTED 100 times" % req.request_id)

    # --- the actions
    def a_prove(self, stub):
        rid = self.new_id("prove")
        kind, req = self.valid(rid)
        r = stub.Prove(pb.ProveRequest(submit=req), timeout=PATIENCE).result
        self.final("Prove", kind, rid, r)

    def a_submit_await(self, stub):
        rid = self.new_id("submit")
        kind, req = self.valid(rid)
        self.submit(stub, req)
        self.final("Submit+Await", kind, rid, self.await_final(stub, rid))
        self.expect_gone(stub, rid)

    def expect_gone(self, stub, rid):
        """A collected result is forgotten: a second AwaitProof is NOT_FOUND (never a second proof)."""
        try:
            r = stub.AwaitProof(pb.AwaitProofRequest(job_id=rid, timeout_ms=1), timeout=PATIENCE)
            violation("%s awaited again after its result was collected: %s" %
                      (rid, pb.AwaitProofResponse.Status.Name(r.status)))
        except grpc.RpcError as e:
            if e.code() != S.NOT_FOUND:
                violation("%s awaited again: %s %s" % (rid, e.code(), e.details()))

    def a_disconnect(self, stub):
        rid = self.new_id("gone")
        kind, req = self.valid(rid)
        try:
            r = stub.Prove(pb.ProveRequest(submit=req), timeout=random.uniform(0.01, 0.3)).result
            self.final("Prove, short deadline", kind, rid, r)  # fast enough
            return
        except grpc.RpcError as e:
            if e.code() != S.DEADLINE_EXCEEDED:
                violation("Prove with a short deadline %s: %s %s" % (rid, e.code(), e.details()))
                return
        # its only waiter left: cancelled (or done first); either way its end stays awaitable
        try:
            r = self.await_final(stub, rid)
        except grpc.RpcError as e:
            if e.code() == S.NOT_FOUND:  # the call never reached the daemon before its deadline
                count("Prove, short deadline: never arrived")
                return
            raise
        self.final("Prove, short deadline", kind, rid, r, cancelled_ok=True)

    def a_cancel(self, stub):
        rid = self.new_id("cancel")
        kind, req = self.valid(rid)
        self.submit(stub, req)
        time.sleep(random.uniform(0, 0.3))
        cancel(stub, rid)
        self.final("Submit+Cancel", kind, rid, self.await_final(stub, rid), cancelled_ok=True)

    def a_resubmit(self, stub):
        rid = self.new_id("again")
        kind, req = self.valid(rid)
        self.submit(stub, req)
        self.submit(stub, req)  # joins the same job
        if random.random() < 0.5:  # cancelled, then submitted again: a new job that completes
            cancel(stub, rid)
            r = self.await_final(stub, rid)
            if r.status == pb.AwaitProofResponse.CANCELLED:
                with lock:  # the id's first job ended; the next submission is another job
                    answers.setdefault(rid + "#1", []).append("CANCELLED")
                count("Submit, Cancel: CANCELLED")
                self.submit(stub, req)
                r = self.await_final(stub, rid)
                self.final("Submit, Cancel, Submit", kind, rid, r)
            else:
                self.final("Submit, Cancel (done first)", kind, rid, r)
        else:
            waiters = []
            t = threading.Thread(target=lambda: waiters.append(self.await_final(dc_stub(self.addr), rid)))
            t.start()
            r = self.await_final(stub, rid)
            t.join()
            other = waiters[0] if waiters else None
            self.final("Submit twice", kind, rid, r)
            if other is None or other.status != r.status or other.proof != r.proof:
                violation("%s: two waiters of one job got different answers" % rid)
        self.expect_gone(stub, rid)

    def malformed(self):
        rid = self.new_id("bad")
        win = self.win
        return random.choice([
            ("truncated bincode", pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST,
                                                        registered_proof=WINNING_2K, miner_id=1000,
                                                        randomness=self.rnd,
                                                        vanilla_proofs=[win[:random.randrange(1, len(win))]])),
            ("truncated JSON", pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT, miner_id=1000,
                                                     sector_number=1,
                                                     vanilla_proof=b'{"SectorNum":1,"Phase1Out":"eyJyZWdp')),
            ("bytes \\xff", pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT,
                                                  vanilla_proof=b"\xff")),
            ("a NUL in the id", pb.SubmitProofRequest(request_id=rid + "\x00x", proof_kind=pb.WINNING_POST,
                                                      registered_proof=WINNING_2K, randomness=self.rnd,
                                                      vanilla_proofs=[win])),
            ("unknown registered_proof", pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST,
                                                               registered_proof=2**64 - 1, randomness=self.rnd,
                                                               vanilla_proofs=[win])),
            ("over its kind's limit", pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST,
                                                            registered_proof=WINNING_2K, randomness=self.rnd,
                                                            vanilla_proofs=[win * 3])),
            ("over every limit", pb.SubmitProofRequest(request_id=rid, proof_kind=pb.POREP_SEAL_COMMIT,
                                                       vanilla_proof=b"{" * (3 << 20))),
            ("other randomness", pb.SubmitProofRequest(request_id=rid, proof_kind=pb.WINNING_POST,
                                                       registered_proof=WINNING_2K, miner_id=1000,
                                                       randomness=bytes(32), vanilla_proofs=[win])),
        ])

    def a_malformed(self, stub, ch):
        what, req = self.malformed()
        if random.random() < 0.1:
            raw = ch.unary_unary("/cuzk.v1.ProvingEngine/SubmitProof", request_serializer=None,
                                 response_deserializer=None)
            what, call, arg = "not protobuf", raw, b"\xff\xff\xff\xff"
        elif random.random() < 0.3:
            call, arg = stub.Prove, pb.ProveRequest(submit=req)
        else:
            call, arg = stub.SubmitProof, req
        try:
            resp = call(arg, timeout=PATIENCE)
        except grpc.RpcError as e:
            if e.code() in (S.INVALID_ARGUMENT, S.RESOURCE_EXHAUSTED):
                count("malformed, %s: %s" % (what, e.code().name))
            else:
                violation("malformed (%s): %s %s" % (what, e.code(), e.details()))
            return
        # accepted: the job must fail, with the reason
        r = resp.result if call is stub.Prove else self.await_final(stub, req.request_id)
        if r.status != pb.AwaitProofResponse.FAILED or not r.error_message:
            violation("malformed (%s) accepted and ended %s" % (what, pb.AwaitProofResponse.Status.Name(r.status)))
        with lock:
            answers.setdefault(req.request_id, []).append(pb.AwaitProofResponse.Status.Name(r.status))
        count("malformed, %s: FAILED" % what)

    def a_srs(self, stub):
        circuit = random.choice(["winning-2k", "wpost-2k"])
        try:
            if random.random() < 0.5:
                count("EvictSRS: %s" % evict(stub, circuit))
            else:
                stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id=circuit), timeout=PATIENCE)
                count("PreloadSRS: OK")
        except grpc.RpcError as e:
            if self.in_replace_window(e.details() or ""):
                count("PreloadSRS: failed (parameter file replaced)")
            else:
                violation("SRS %s: %s %s" % (circuit, e.code(), e.details()))

    def a_status(self, stub):
        stub.GetStatus(pb.GetStatusRequest(), timeout=PATIENCE)
        stub.GetMetrics(pb.GetMetricsRequest(), timeout=PATIENCE)
        count("GetStatus+GetMetrics: OK")

    ACTIONS = [("a_prove", 6), ("a_submit_await", 6), ("a_disconnect", 3), ("a_cancel", 3), ("a_resubmit", 3),
               ("a_malformed", 6), ("a_srs", 1), ("a_status", 1)]

    def client(self, n):
        ch = dc.channel(self.addr)
        stub = pb_grpc.ProvingEngineStub(ch)
        names = [a for a, w in self.ACTIONS for _ in range(w)]
        rng = random.Random(n * 7919 + int(time.time()))
        while not self.stop.is_set():
            name = rng.choice(names)
            try:
                if name == "a_malformed":
                    self.a_malformed(stub, ch)
                else:
                    getattr(self, name)(stub)
            except Exception as e:  # a gRPC error where none was expected, or no end in time
                violation("client %d, %s: %s" % (n, name, e))
                time.sleep(1)
        ch.close()

    # --- the parameter file replaced once
    def replace_params(self, at):
        try:
            self.replace_params_once(at)
        except Exception as e:
            violation("the parameter-file replacement: %s" % e)

    def replace_params_once(self, at):
        if self.stop.wait(at):
            return
        pdir = os.path.join(self.work, "params")
        out = subprocess.run([self.cuzk, "params", "generate", "--kind", "winning-post", "--sector-size", "2KiB",
                              "--out", pdir], capture_output=True, text=True)
        names = [n for n in os.listdir(pdir) if n.endswith(".params") and n[:-7] in out.stdout + out.stderr]
        if len(names) != 1:
            violation("the Winning parameter file not found in %s" % pdir)
            return
        f = os.path.join(pdir, names[0])
        whole = open(f, "rb").read()
        stub = dc_stub(self.addr)
        # clients leave Winning alone until winning-2k can be evicted; then the file is truncated in
        # place: a preload and a Winning job fail naming the file, the daemon lives on
        self.no_winning.set()
        end = time.time() + PATIENCE
        while evict(stub, "winning-2k") != "OK" and time.time() < end:
            time.sleep(0.2)
        replace_window[0] = time.time()
        # first while a preload reads it (the mapped file shrinks under the reader): it fails naming the
        # file, or it had finished first
        got = []
        loader = threading.Thread(target=lambda: got.append(preload_outcome(stub, "winning-2k")))
        loader.start()
        time.sleep(random.uniform(0.01, 0.3))
        os.truncate(f, 200000)
        loader.join()
        count("PreloadSRS truncated meanwhile: %s" % got[0])
        if got[0] == "OK":
            evict(stub, "winning-2k")
        print("soak: %s truncated to 200000 bytes" % names[0], flush=True)
        try:
            stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="winning-2k"), timeout=PATIENCE)
            violation("a preload of the truncated parameter file succeeded")
        except grpc.RpcError as e:
            count("PreloadSRS while truncated: %s" % e.code().name)
            print("soak: preload while truncated: %s %s" % (e.code().name, e.details()), flush=True)
            if names[0] not in (e.details() or ""):
                violation("a failed preload does not name the file: %s" % e.details())
        rid = self.new_id("truncated")
        kind, req = self.valid(rid, "winning")
        r = stub.Prove(pb.ProveRequest(submit=req), timeout=PATIENCE).result
        print("soak: a Winning job while truncated: %s %s" %
              (pb.AwaitProofResponse.Status.Name(r.status), r.error_message), flush=True)
        if r.status != pb.AwaitProofResponse.FAILED or names[0] not in r.error_message:
            violation("a Winning job while its file was truncated: %s %s" %
                      (pb.AwaitProofResponse.Status.Name(r.status), r.error_message))
        self.final("Prove while truncated", kind, rid, r)
        tmp = f + ".new"
        with open(tmp, "wb") as g:
            g.write(whole)
        os.rename(tmp, f)  # atomically back
        print("soak: %s put back (rename)" % names[0], flush=True)
        stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="winning-2k"), timeout=PATIENCE)
        count("PreloadSRS after the replacement: OK")
        replace_window[1] = time.time()
        self.no_winning.clear()

    def sample(self):
        while not self.stop.wait(2):
            try:
                rss, thr = proc_status(self.pid)
            except OSError:
                return
            self.peak = (max(self.peak[0], rss), max(self.peak[1], thr))

    def quiet_state(self, stub):
        """Both circuits loaded and no call of ours in flight: the state the baseline and the end compare."""
        for c in ("winning-2k", "wpost-2k"):
            stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id=c), timeout=PATIENCE)
        time.sleep(2)
        return proc_status(self.pid)


def evict(stub, circuit):
    """EvictSRS: OK, or FAILED_PRECONDITION while jobs use the circuit (then it stays)."""
    try:
        stub.EvictSRS(pb.EvictSrsRequest(circuit_id=circuit), timeout=PATIENCE)
        return "OK"
    except grpc.RpcError as e:
        if e.code() != S.FAILED_PRECONDITION or "in use" not in (e.details() or ""):
            raise
        return "FAILED_PRECONDITION"


def preload_outcome(stub, circuit):
    try:
        stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id=circuit), timeout=PATIENCE)
        return "OK"
    except grpc.RpcError as e:
        return e.code().name


def cancel(stub, rid):
    """CancelProof; NOT_FOUND when the job ended first (its result then awaits collection)."""
    try:
        stub.CancelProof(pb.CancelProofRequest(job_id=rid), timeout=PATIENCE)
    except grpc.RpcError as e:
        if e.code() != S.NOT_FOUND:
            raise
        count("CancelProof after the job ended: NOT_FOUND")


def completed(outcomes):
    return sum(v for k, v in outcomes.items() if k.endswith(": COMPLETED"))


def dc_stub(addr):
    return pb_grpc.ProvingEngineStub(dc.channel(addr))


def verify(cuzk, params, work, kind, path):
    if kind == "winning":
        van = ["--vanilla", os.path.join(work, "win.vproof"), "--sector-size", "2KiB"]
    else:
        van = ["--vanilla", os.path.join(work, "w0.vproof"), "--vanilla", os.path.join(work, "w1.vproof"),
               "--registered-proof", "StackedDrgWindow2KiBV1_1"]
    rnd = open(os.path.join(work, "rnd")).read().strip()
    return subprocess.run([cuzk, "post", "verify", "--kind", kind, "--randomness", rnd, "--miner-id", "1000",
                           "--params", params, "--proof", path, "--threads", "1"] + van,
                          capture_output=True).returncode


def main():
    if len(_args) not in (5, 6):
        sys.exit(__doc__)
    addr, pid, work, cuzk, minutes = _args[:5]
    nclients = int(_args[5]) if len(_args) == 6 else 4
    seconds = float(minutes) * 60
    soak = Soak(addr, pid, work, cuzk)
    stub = dc_stub(addr)
    t0 = time.time()

    # warm-up: every action once, then the baseline
    for name, _ in Soak.ACTIONS:
        try:
            soak.a_malformed(stub, dc.channel(addr)) if name == "a_malformed" else getattr(soak, name)(stub)
        except Exception as e:
            violation("warm-up %s: %s" % (name, e))
    # ... and the clients at once for a while (the allocator's arenas and the call threads grow to
    # what concurrent calls need), then the baseline
    warm = [threading.Thread(target=soak.client, args=(i,)) for i in range(nclients)]
    for t in warm:
        t.start()
    time.sleep(min(60, max(10, seconds / 10)))
    soak.stop.set()
    for t in warm:
        t.join()
    soak.stop.clear()
    base = soak.quiet_state(stub)
    soak.peak = base
    print("soak: warm-up %.0f s; baseline RSS %.1f MiB, %d threads" % (time.time() - t0, base[0] / 2**20, base[1]),
          flush=True)

    t1 = time.time()
    proofs_warm = completed(outcomes)
    threads = [threading.Thread(target=soak.client, args=(i,)) for i in range(nclients)]
    threads.append(threading.Thread(target=soak.replace_params, args=(seconds / 3,)))
    threads.append(threading.Thread(target=soak.sample))
    for t in threads:
        t.start()
    last = t1
    while time.time() - t1 < seconds:
        time.sleep(5)
        if time.time() - last >= 60:
            last = time.time()
            with lock:
                done = completed(outcomes) - proofs_warm
            print("soak: %.0f min, %d proofs, %d violation(s), RSS %.1f MiB, %d threads" %
                  ((last - t1) / 60, done, len(violations), *(lambda r, t: (r / 2**20, t))(*proc_status(pid))),
                  flush=True)
    soak.stop.set()
    for t in threads:
        t.join()
    run_s = time.time() - t1

    alive = os.path.exists("/proc/%s/status" % pid)
    if not alive:
        violation("the daemon is gone")
        end = (0, 0)
    else:
        end = soak.quiet_state(stub)
        for _ in range(15):  # threads that serve calls go back when idle
            if end[1] <= base[1] + THREAD_MARGIN and end[0] <= base[0] + max(base[0] * RSS_MARGIN[0], RSS_MARGIN[1]):
                break
            time.sleep(2)
            end = proc_status(pid)

    # every proof verified offline
    params = os.path.join(work, "params")
    v0 = time.time()
    bad = [p for kind, p in to_verify if verify(cuzk, params, work, kind, p) != 0]
    for p in bad:
        violation("proof %s does not verify offline" % os.path.basename(p))
    verify_s = time.time() - v0
    # one final answer per accepted id, no proof handed over twice
    for rid, sts in answers.items():
        if len(sts) != 1:
            violation("%s: %d final answers %s" % (rid, len(sts), sts))
    for rid, n in completed_ids.items():
        if n != 1:
            violation("%s: COMPLETED %d times" % (rid, n))
    if alive:
        rss_limit = base[0] + max(base[0] * RSS_MARGIN[0], RSS_MARGIN[1])
        if end[0] > rss_limit:
            violation("RSS %.1f MiB at the end, baseline %.1f MiB (limit %.1f)" %
                      (end[0] / 2**20, base[0] / 2**20, rss_limit / 2**20))
        if end[1] > base[1] + THREAD_MARGIN:
            violation("%d threads at the end, baseline %d" % (end[1], base[1]))

    proofs = completed(outcomes) - proofs_warm
    print("\n=== soak summary: %d clients, %.1f min (plus %.0f s warm-up; its jobs counted below too) ===" %
          (nclients, run_s / 60, t1 - t0))
    for k in sorted(outcomes):
        print("  %-58s %6d" % (k, outcomes[k]))
    print("  ids with a final answer: %d; proofs verified offline: %d of %d (%.0f s)" %
          (len(answers), len(to_verify) - len(bad), len(to_verify), verify_s))
    print("  proofs/min: %.1f" % (proofs / (run_s / 60)))
    print("  RSS MiB   start %.1f, peak %.1f, end %.1f (margin +%d%% or +%d MiB)" %
          (base[0] / 2**20, soak.peak[0] / 2**20, end[0] / 2**20, RSS_MARGIN[0] * 100, RSS_MARGIN[1] >> 20))
    print("  threads   start %d, peak %d, end %d (margin +%d)" % (base[1], soak.peak[1], end[1], THREAD_MARGIN))
    print("  daemon alive: %s; violations: %d" % ("yes" if alive else "NO", len(violations)))
    for v in violations[:20]:
        print("    " + v)
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
