#!/bin/sh
# PoRep verification binds the sector as Filecoin's verify_seal does (fast: no parameters needed, the
# sector checks come before them). `cuzk porep verify` needs the miner id and the sector number (or takes
# the number from Curio's wrapper and says so); a C1 whose wrapper SectorNum or ticket was changed, or one
# checked for another miner or sector number, is INVALID (exit 1) with the reason; the true values get past
# the checks (to the missing parameters here; the slow test_porep_e2e proves and verifies with them). The
# daemon, through the independent Python client: an unknown registered_proof refused for every kind, the
# same tampered requests failing with the reason, the sector number held to the wrapper's even without a
# miner id, the true requests getting past the checks.
# Usage: test_porep_bind.sh <cuzk> <cuzk-daemon>
set -u
cuzk="$1"
daemon="$2"
msg_on="1 2"   # an invalid proof (exit 1) says why too
. "$(dirname "$0")/../cli_expect.sh"
. "$(dirname "$0")/../server/daemon_util.sh"
py="/usr/bin/python3 $(dirname "$0")/../server/daemon_client.py"

expect 0 "seal" "$cuzk" seal --sector-size 2KiB --out "$dir/a" --miner-id 1000 --sector-num 7 --c1-only
sed 's/"SectorNum":7,/"SectorNum":8,/' "$dir/a/c1-wrapper.json" >"$dir/w8.json"
/usr/bin/python3 -c "import base64,json,sys; c=json.load(open(sys.argv[1])); c['ticket'][0]^=1
b=json.dumps(c,separators=(',',':')); open(sys.argv[2],'w').write(b)
w=json.load(open(sys.argv[3])); w['Phase1Out']=base64.b64encode(b.encode()).decode()
open(sys.argv[4],'w').write(json.dumps(w,separators=(',',':')))" \
  "$dir/a/c1.json" "$dir/ticket.json" "$dir/a/c1-wrapper.json" "$dir/ticket-w.json"
mkdir "$dir/params"
verify() {   # verify <exit code> <description> <c1> [options]
  want="$1"; what="$2"; c1="$3"; shift 3
  expect "$want" "$what" "$cuzk" porep verify --c1 "$c1" --params "$dir/params" --proof "$dir/none" "$@"
}

verify 1 "the wrapper's SectorNum changed" "$dir/w8.json" --miner-id 1000
stdout_has "the wrapper's SectorNum changed" "INVALID"
stderr_has "the wrapper's SectorNum changed" "replica_id is not that of miner 1000, sector 8"
verify 1 "the ticket changed" "$dir/ticket.json" --miner-id 1000 --sector-num 7
stderr_has "the ticket changed" "replica_id is not that of miner 1000, sector 7"
verify 1 "the ticket changed, in a wrapper" "$dir/ticket-w.json" --miner-id 1000
verify 1 "another miner" "$dir/a/c1-wrapper.json" --miner-id 1001
verify 1 "another sector number" "$dir/a/c1.json" --miner-id 1000 --sector-num 8
verify 1 "a sector number against the wrapper's" "$dir/a/c1-wrapper.json" --miner-id 1000 --sector-num 8
stderr_has "a sector number against the wrapper's" "SectorNum 7"
verify 2 "no --miner-id" "$dir/a/c1-wrapper.json"
stderr_has "no --miner-id" "miner-id is required"
verify 2 "a bare C1 without --sector-num" "$dir/a/c1.json" --miner-id 1000
stderr_has "a bare C1 without --sector-num" "sector-num is required with a bare C1"
# the true values: past the sector checks, stopped by the missing parameters
verify 2 "the true sector (wrapper)" "$dir/a/c1-wrapper.json" --miner-id 1000
stderr_has "the true sector (wrapper)" "missing parameters"
verify 2 "the true sector (bare)" "$dir/a/c1.json" --miner-id 1000 --sector-num 7
stderr_has "the true sector (bare)" "missing parameters"

# the daemon: a wrapper with its own C1 tampered by the client
start_daemon "$dir/d.log" --set "srs.param_cache=$dir/params" --set memory.total_budget=2GiB ||
  { echo "FAIL: the daemon did not start"; cat "$dir/d.log"; exit 1; }
expect 0 "the daemon's sector checks (Python client)" $py bind "127.0.0.1:$port" "$dir/a/c1-wrapper.json" 1000
cat "$dir/out"
stop_daemon "$dir/d.log" || { echo "FAIL: SIGTERM"; cat "$dir/d.log"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "test_porep_bind: all checks passed" || echo "test_porep_bind: $fails failures"
[ "$fails" -eq 0 ]
