# Shared by the daemon's shell tests (sourced after cli_expect.sh; needs $daemon): start a daemon on a
# free loopback port and learn its ports from its log, stop it with SIGTERM, fetch an HTTP page, check
# the last command's output, run the independent Python client.
#   start_daemon <log> [daemon options...]   sets $pid, $port (gRPC) and $status_port (HTTP, if any)
#   stop_daemon <log>                        SIGTERM; fails unless it exits 0 within 60 s
#   http_get <port> <path>                   the body on stdout; exit 0 for HTTP 200, 1 otherwise
#   out_has <description> <text>            counts a failure unless the last expect's output has text
#   $py <mode> ...                           daemon_client.py
py="/usr/bin/python3 $(dirname "$0")/daemon_client.py"

out_has() {
  grep -q -- "$2" "$dir/out" "$dir/err" || { echo "FAIL: $1: output lacks '$2'"; cat "$dir/out" "$dir/err"; fails=$((fails + 1)); }
}

start_daemon() {
  log="$1"; shift
  : >"$log" # emptied before the start: an earlier daemon's "serving" line must not count as this one's
  case " $* " in *" -l "*) "$daemon" "$@" >"$log" 2>&1 & ;; *) "$daemon" -l 127.0.0.1:0 "$@" >"$log" 2>&1 & ;; esac
  pid=$!
  port=""; status_port=""
  i=0
  while [ $i -lt 300 ]; do
    if [ -f "$log" ] && grep -q "serving cuzk.v1.ProvingEngine" "$log"; then
      port=$(sed -n 's/^cuzk-daemon: serving[^(]*(port \([0-9]*\)).*/\1/p' "$log")
      status_port=$(sed -n 's/.*status on [^(]*(port \([0-9]*\)).*/\1/p' "$log")
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

stop_daemon() {
  kill -TERM "$pid" 2>/dev/null || return 1
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  wait "$pid"
}

http_get() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=10) as r:
        sys.stdout.write(r.read().decode())
except urllib.error.HTTPError as e:
    sys.stderr.write("HTTP %d\n" % e.code)
    sys.exit(1)
PY
}
