#!/usr/bin/env bash
# The escalation of issue 42, as a test. With the README's capture set-up (a
# user in the wireshark group, dumpcap with its capabilities, rudpscope's
# programs with none), that user captures on a veth interface through
# dumpcap, and the same user's Lua script, loaded by that capture, cannot
# change the interface's MTU: LuaJIT's ffi is not there, and SIOCSIFMTU
# through another program gets EPERM. Then the advice rudpscope used to give
# (setcap on its own program) is tried on a copy: the privileged program
# refuses the user's Lua file with one line, and the script never runs.
#   capture_privileges.sh BUILD_DIR     (root)
set -euo pipefail
BUILD=$1
CLI=$BUILD/analysis/cli/rudpscope-cli
GUI=$BUILD/app/rudpscope
USER_=rudpscope-test
NA=rsp-a-$$ NB=rsp-b-$$
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (network namespaces)"
id -nG "$USER_" | grep -qw wireshark || fail "no $USER_ in the wireshark group: run bash packaging/debian-deps.sh --test"

WORK=$(mktemp -d)
cleanup() { ip netns del "$NA" 2>/dev/null || true; ip netns del "$NB" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
chmod 0777 "$WORK"

# The set-up: privileges on dumpcap alone.
[[ $(getcap /usr/bin/dumpcap) == "/usr/bin/dumpcap cap_net_admin,cap_net_raw=eip" ]] || fail "dumpcap: $(getcap /usr/bin/dumpcap)"
[[ $(stat -c '%U:%G %a' /usr/bin/dumpcap) == "root:wireshark 754" ]] || fail "dumpcap is $(stat -c '%U:%G %a' /usr/bin/dumpcap)"
for p in "$CLI" "$GUI"; do
  [[ ! -e $p || -z $(getcap "$p") ]] || fail "$p has capabilities: $(getcap "$p")"
done

# Two namespaces joined by a veth pair: what crosses v0 is captured there.
ip netns add "$NA"
ip netns add "$NB"
ip link add v0 netns "$NA" type veth peer name v1 netns "$NB"
ip -n "$NA" addr add 10.77.0.1/24 dev v0
ip -n "$NB" addr add 10.77.0.2/24 dev v1
for ns in "$NA" "$NB"; do ip -n "$ns" link set lo up; done
ip -n "$NA" link set v0 up
ip -n "$NB" link set v1 up
mtu() { ip netns exec "$NA" cat /sys/class/net/v0/mtu; }
[[ $(mtu) == 1500 ]] || fail "v0's MTU is $(mtu) before the test"

# The user's "dissector": tries to reach C, then the ioctl through python3.
cat >"$WORK/evil.lua" <<'LUA'
local out = assert(io.open(os.getenv("EVIL_OUT"), "w"))
local ok = pcall(require, "ffi")
out:write("ffi loaded: ", tostring(ok), "\n")
out:write("jit: ", tostring(jit), "\n")
local p = io.popen("python3 " .. os.getenv("EVIL_DIR") .. "/set_mtu.py v0 1280 2>&1")
out:write(p:read("*a"))
p:close()
out:close()
local evil = Proto("evil", "Evil")
function evil.dissector() end
DissectorTable.get("udp.port"):add(47299, evil)
LUA
cat >"$WORK/set_mtu.py" <<'PY'
import errno, fcntl, socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    fcntl.ioctl(s, 0x8922, struct.pack("16si", sys.argv[1].encode(), int(sys.argv[2])))  # SIOCSIFMTU
    print("SIOCSIFMTU rc=0")
except OSError as e:
    print("SIOCSIFMTU", errno.errorcode[e.errno])
PY
chown "$USER_" "$WORK/evil.lua" "$WORK/set_mtu.py"

# Sends 200 datagrams from NB to NA's port 47200, 2 ms apart.
send() {
  ip netns exec "$NB" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(200):
    s.sendto(b"x" * 100, ("10.77.0.1", 47200)); time.sleep(0.002)'
}
# "$@" in NA as the user, with the script's two variables.
as_user() {
  ip netns exec "$NA" setpriv --reuid="$USER_" --regid="$USER_" --init-groups \
    env EVIL_OUT="$WORK/evil.out" EVIL_DIR="$WORK" "$@"
}

echo "== a wireshark-group user captures on v0 through dumpcap, with its own Lua script"
as_user "$CLI" capture -i v0 -f "udp port 47200" -w "$WORK/user.pcapng" --duration 4 --json \
  -X "lua_script:$WORK/evil.lua" >"$WORK/user.json" 2>"$WORK/user.err" &
cap=$!
for _ in $(seq 100); do [[ -s $WORK/user.pcapng ]] && break; sleep 0.05; done
[[ -s $WORK/user.pcapng ]] || { cat "$WORK/user.err" >&2; fail "the capture did not start"; }
send
wait "$cap" || { cat "$WORK/user.err" >&2; fail "the capture failed"; }
packets=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["capture"]["packets"])' "$WORK/user.json")
[[ $packets == 200 ]] || fail "captured $packets packets, not 200"
[[ $(stat -c %U "$WORK/user.pcapng") == "$USER_" ]] || fail "the capture file is not the user's"
grep -q "(0 dropped by the kernel, 0 by the interface)" "$WORK/user.err" || { cat "$WORK/user.err" >&2; fail "no drop counts"; }
expected=$'ffi loaded: false\njit: nil\nSIOCSIFMTU EPERM'
[[ $(cat "$WORK/evil.out") == "$expected" ]] || fail "the script saw: $(cat "$WORK/evil.out")"
[[ $(mtu) == 1500 ]] || fail "v0's MTU changed to $(mtu)"
echo "   200 packets captured as $USER_; the script: ffi not loaded, jit nil, SIOCSIFMTU EPERM; MTU 1500"

echo "== the old advice, setcap on rudpscope-cli itself: the user's Lua file is refused"
rm -f "$WORK/evil.out"
cp "$CLI" "$WORK/rudpscope-cli"
setcap cap_net_raw,cap_net_admin+eip "$WORK/rudpscope-cli"
set +e
as_user "$WORK/rudpscope-cli" capture -i v0 -f "udp port 47200" -w "$WORK/setcap.pcapng" --duration 1 \
  -X "lua_script:$WORK/evil.lua" >"$WORK/setcap.out" 2>"$WORK/setcap.err"
status=$?
set -e
uid=$(id -u "$USER_")
line="rudpscope-cli: evil.lua: not loaded: it is owned by uid $uid ($USER_), and this program runs with privileges (capabilities cap_net_admin,cap_net_raw), so it loads only Lua files owned by root that no one else can write"
[[ $status == 2 ]] || { cat "$WORK/setcap.err" >&2; fail "exit status $status, not 2"; }
[[ $(cat "$WORK/setcap.err") == "$line" ]] || fail "stderr: $(cat "$WORK/setcap.err")"
[[ ! -e $WORK/evil.out ]] || fail "the refused script ran: $(cat "$WORK/evil.out")"
[[ $(mtu) == 1500 ]] || fail "v0's MTU changed to $(mtu)"
echo "   refused in one line; the script never ran; MTU 1500"
echo "PASS"
