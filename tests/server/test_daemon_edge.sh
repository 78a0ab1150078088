#!/bin/sh
# cuzk-daemon's transport under a shared host and careless clients (fast, no proving), through the
# independent Python client (daemon_edge.py): text fields valid UTF-8 and ids with a NUL refused, input
# limits per proof kind, the cap on calls at once with the daemon's thread count bounded, 1500 idle HTTP
# connections that do not keep GET /status out, a unix socket 0660 (or daemon.socket_mode) under umask
# 000, --grace and the transport settings checked at start.
# Usage: test_daemon_edge.sh <cuzk-daemon>
set -u
daemon="$1"
msg_on="2"
. "$(dirname "$0")/../cli_expect.sh"
. "$(dirname "$0")/daemon_util.sh"
edge="/usr/bin/python3 $(dirname "$0")/daemon_edge.py"
mkdir "$dir/params"

# refused at start, with the reason
expect 2 "--grace that would wrap" timeout 20 "$daemon" -l 127.0.0.1:0 --grace 18446744073709552
out_has "--grace" "expects a number from 0 to 604800"
expect 2 "a socket mode without the owner's write" "$daemon" --set daemon.socket_mode=0440
out_has "socket mode" "the owner needs read and write"
expect 2 "an input limit over 1GiB" "$daemon" --set daemon.max_input_porep=2GiB
out_has "input limit" "daemon.max_input_porep"
expect 0 "the transport settings printed" "$daemon" --print-config --set daemon.socket_mode=0640 \
  --set daemon.max_concurrent_calls=64 --set daemon.status_idle_timeout=30s --set daemon.max_input_snap=32MiB
out_has "socket_mode" 'daemon.socket_mode = "0640"'
out_has "max_concurrent_calls" "daemon.max_concurrent_calls = 64"
out_has "status_max_connections" "daemon.status_max_connections = 64"
out_has "status_idle_timeout" 'daemon.status_idle_timeout = "30s"'
out_has "max_input_snap" 'daemon.max_input_snap = "32MiB"'
out_has "max_input_porep" 'daemon.max_input_porep = "128MiB"'

# text fields and input limits
start_daemon "$dir/d1.log" --set "srs.param_cache=$dir/params" --set memory.total_budget=2GiB \
  --set daemon.max_input_porep=1MiB --set daemon.max_input_snap=1MiB --set daemon.max_input_window_post=1MiB \
  --set daemon.max_input_winning_post=1KiB || { echo "FAIL: the daemon did not start"; cat "$dir/d1.log"; exit 1; }
expect 0 "text fields" $edge text "127.0.0.1:$port"
expect 0 "input limits" $edge input "127.0.0.1:$port"
cat "$dir/out"
stop_daemon "$dir/d1.log" || { echo "FAIL: the daemon did not stop cleanly"; cat "$dir/d1.log"; fails=$((fails + 1)); }

# calls at once, idle HTTP connections
start_daemon "$dir/d2.log" --set "srs.param_cache=$dir/params" --set memory.total_budget=2GiB \
  --set daemon.max_concurrent_calls=16 --status-listen 127.0.0.1:0 --set daemon.status_max_connections=32 ||
  { echo "FAIL: the daemon did not start"; cat "$dir/d2.log"; exit 1; }
expect 0 "calls beyond the cap" $edge calls "127.0.0.1:$port" "$pid" 16
cat "$dir/out"
expect 0 "idle HTTP connections" $edge http "$status_port" "$pid"
cat "$dir/out"
stop_daemon "$dir/d2.log" || { echo "FAIL: the daemon did not stop cleanly"; cat "$dir/d2.log"; fails=$((fails + 1)); }

# a unix socket under umask 000: 0660 by default, daemon.socket_mode otherwise
sock="$dir/run/cuzk.sock"
saved=$(umask)
for mode in "" 600; do
  umask 000
  if [ -n "$mode" ]; then
    start_daemon "$dir/d3.log" -l "unix://$sock" --set daemon.socket_mode=$mode
  else
    start_daemon "$dir/d3.log" -l "unix://$sock"
  fi || { umask "$saved"; echo "FAIL: unix socket"; cat "$dir/d3.log"; exit 1; }
  umask "$saved"
  got=$(stat -c %a "$sock")
  [ "$got" = "${mode:-660}" ] || { echo "FAIL: socket mode $got under umask 000, want ${mode:-660}"; fails=$((fails + 1)); }
  stop_daemon "$dir/d3.log"
done

[ "$fails" -eq 0 ] && echo "test_daemon_edge: all checks passed"
exit "$fails"
