#!/bin/sh
# Starts D-Bus and Avahi (ippeveprinter will not start without DNS-SD) unless they answer, and prints
# the bus they are on as its last line: `DBUS_SYSTEM_BUS_ADDRESS=` (empty: the system bus) or the
# address of a bus of our own, which the printers must then be started with.
#
# Called by .ci/run and by the devices tests, several at once, so it runs under a lock. Liveness is
# asked of the daemons themselves, never read from files: a machine restored from a snapshot may keep
# /run/dbus/system_bus_socket and pid files of daemons that are not running (a stale pid file keeps a
# new dbus-daemon from starting). Where the system bus cannot start at all (a sandbox without the
# rights dbus-daemon --system wants), a bus of our own, run as this user, takes its place.
set -u
exec 9>/tmp/tramita-avahi.lock
flock -w 30 9 || { echo "another start of D-Bus and Avahi holds /tmp/tramita-avahi.lock" >&2; exit 1; }

OWN_DIR=/tmp/tramita-dbus
OWN_ADDRESS="unix:path=$OWN_DIR/bus_socket"

bus_up() { dbus-send --system --print-reply --reply-timeout=2000 --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1; }
avahi_up() {
  dbus-send --system --print-reply --reply-timeout=2000 --dest=org.freedesktop.Avahi / \
    org.freedesktop.Avahi.Server.GetState >/dev/null 2>&1
}
wait_for() { i=0; while [ $i -lt 50 ]; do "$1" && return 0; sleep 0.2; i=$((i + 1)); done; return 1; }

start_system_bus() {
  mkdir -p /run/dbus
  rm -f /run/dbus/pid /run/dbus/system_bus_socket
  # 9>&-: a daemon must not inherit the lock, or it holds it for as long as it runs.
  dbus-daemon --system --fork 9>&- && wait_for bus_up
}

start_own_bus() {
  mkdir -p "$OWN_DIR"
  rm -f "$OWN_DIR/bus_socket" "$OWN_DIR/pid"
  # The system bus's type with a policy that lets this user own Avahi's name and call it.
  cat >"$OWN_DIR/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>$OWN_ADDRESS</listen>
  <auth>EXTERNAL</auth>
  <pidfile>$OWN_DIR/pid</pidfile>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
EOF
  dbus-daemon --config-file="$OWN_DIR/bus.conf" --fork 9>&- && wait_for bus_up
}

# A daemon runs when its pid file names a live process of that program (a restored snapshot's files
# name none). A slow answer under load is not a dead daemon: restarting a live one would cut off the
# printers already on it.
running() { pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]; }
restart_avahi() {
  if running /run/avahi-daemon/pid avahi-daemon; then
    kill "$pid"
    i=0; while [ $i -lt 50 ] && [ -e "/proc/$pid" ]; do sleep 0.1; i=$((i + 1)); done
  fi
  rm -f /run/avahi-daemon/pid
  /usr/sbin/avahi-daemon -D --no-drop-root --no-chroot 9>&- || exit 1
}

bus_started=0
if bus_up || { running /run/dbus/pid dbus-daemon && wait_for bus_up; }; then
  : # the system bus
elif export DBUS_SYSTEM_BUS_ADDRESS="$OWN_ADDRESS" && { bus_up || { running "$OWN_DIR/pid" dbus-daemon && wait_for bus_up; }; }; then
  : # our own bus, started by an earlier call
else
  unset DBUS_SYSTEM_BUS_ADDRESS
  bus_started=1
  if ! started=$(start_system_bus 2>&1); then
    echo "dbus-daemon --system did not start ($started); starting a bus of our own" >&2
    export DBUS_SYSTEM_BUS_ADDRESS="$OWN_ADDRESS"
    start_own_bus || { echo "no D-Bus could be started" >&2; exit 1; }
  fi
fi
if avahi_up; then
  :
elif [ $bus_started = 0 ] && running /run/avahi-daemon/pid avahi-daemon && wait_for avahi_up; then
  : # it was only slow
else
  # Not running, or on a bus that is gone (a new one was just started): a new start.
  restart_avahi
  wait_for avahi_up || { echo "avahi-daemon started but is not on the bus" >&2; exit 1; }
fi
echo "DBUS_SYSTEM_BUS_ADDRESS=${DBUS_SYSTEM_BUS_ADDRESS:-}"
