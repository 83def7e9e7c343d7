#!/usr/bin/env bash
# A throwaway S3 server on loopback for the integration tests: Debian's Ceph
# RADOS Gateway (a real S3 implementation that checks SigV4 signatures) in
# front of a one-node Ceph cluster (one ceph-mon, one ceph-osd on memstore,
# so the objects live in the OSD's memory and vanish with it).
#
#   scripts/test-s3.sh start   # prints the S3_* variables to use, one `export NAME=value` a line, on stdout
#   scripts/test-s3.sh stop    # stop the daemons and delete the data directory
#
#   eval "$(scripts/test-s3.sh start)" && npm run test:unit
#
# Needs `apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw`
# (ceph-common comes with them). No ceph-mgr: nothing on the data path needs
# it. Settings: S3_TEST_DIR (/tmp/pm-test-s3), S3_TEST_PORT (57480, radosgw's
# HTTP port), S3_TEST_MON_PORT (56789); the OSD binds a port in 56800-56899.
set -euo pipefail

dir="$(realpath -m "${S3_TEST_DIR:-/tmp/pm-test-s3}")"
port="${S3_TEST_PORT:-57480}"
mon_port="${S3_TEST_MON_PORT:-56789}"
bucket="pm-test-images"
access_key="PMTESTACCESSKEY00001"
secret_key="pm-test-secret-key-not-for-production-0001"

log() { echo "test-s3: $*" >&2; }

need() {
  local bin
  for bin in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph curl; do
    if ! command -v "$bin" >/dev/null; then
      log "$bin is missing (apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw)"
      exit 1
    fi
  done
}

ceph_() { ceph --conf "$dir/ceph.conf" --connect-timeout 20 "$@"; }

write_conf() {
  local fsid=$1
  cat >"$dir/ceph.conf" <<CONF
[global]
fsid = $fsid
mon initial members = a
mon host = 127.0.0.1:$mon_port
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind msgr2 = false
ms bind ipv6 = false
ms bind port min = 56800
ms bind port max = 56899
# A throwaway cluster on loopback: no cephx between its own daemons. The S3
# credentials radosgw checks (SigV4) are separate and stay on.
auth cluster required = none
auth service required = none
auth client required = none
# One OSD: every pool keeps a single copy, and may.
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 1
osd crush chooseleaf type = 0
# radosgw creates 7 pools on first use; with the default of 32 placement
# groups each, one OSD would pass mon_max_pg_per_osd (250) and creating the
# last pools would fail. 8 each, no autoscaler (that is a ceph-mgr module).
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon max pg per osd = 1000
run dir = $dir/run
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid
log file = $dir/log/\$name.log
mon data = $dir/mon/\$name
osd data = $dir/osd/\$name
osd objectstore = memstore
memstore device bytes = 1073741824
osd max object name len = 256
osd max object namespace len = 64
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$port
rgw data = $dir/rgw
rgw dns name = 127.0.0.1
rgw thread pool size = 64
CONF
}

start() {
  need
  local started=$SECONDS
  if [[ -e "$dir" ]]; then
    log "$dir already exists; stopping and removing the previous cluster"
    stop
  fi
  mkdir -p "$dir"/{run,log,mon,osd,rgw}
  chmod 700 "$dir"
  local fsid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  write_conf "$fsid"
  fail() {
    log "$1; the logs:"
    tail -n 30 "$dir"/log/*.log >&2 2>/dev/null || true
    stop
    exit 1
  }

  # Another cluster on these ports (a previous run still stopping) would answer in
  # place of ours: its monitor then refuses our OSD with 'wrong fsid'. Say so instead.
  local busy
  for busy in "$mon_port" "$port"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$busy") 2>/dev/null; then
      log "127.0.0.1:$busy is in use already (another test S3 server?); stop it or set S3_TEST_MON_PORT / S3_TEST_PORT"
      rm -rf "$dir"
      exit 1
    fi
  done

  monmaptool --create --fsid "$fsid" --addv a "[v1:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null 2>&1 ||
    fail "monmaptool failed"
  ceph-mon --conf "$dir/ceph.conf" --id a --mkfs --monmap "$dir/monmap" >>"$dir/log/setup.log" 2>&1 ||
    fail "ceph-mon --mkfs failed"
  ceph-mon --conf "$dir/ceph.conf" --id a >>"$dir/log/setup.log" 2>&1 || fail "ceph-mon did not start"
  [[ "$(ceph_ fsid 2>>"$dir/log/setup.log")" == "$fsid" ]] || fail "the monitor on 127.0.0.1:$mon_port is not this cluster's"

  local osd_id
  osd_id=$(ceph_ osd create 2>>"$dir/log/setup.log") || fail "ceph osd create failed"
  # Now and then an OSD made while the new monitor is still settling records no
  # cluster fsid and is refused ('wrong fsid'): make it again, up to three times.
  local attempt
  for attempt in 1 2 3; do
    rm -rf "$dir/osd/osd.$osd_id"
    mkdir -p "$dir/osd/osd.$osd_id"
    ceph-osd --conf "$dir/ceph.conf" --id "$osd_id" --mkfs >>"$dir/log/setup.log" 2>&1 ||
      fail "ceph-osd --mkfs failed"
    if ceph-osd --conf "$dir/ceph.conf" --id "$osd_id" >>"$dir/log/setup.log" 2>&1; then break; fi
    ((attempt < 3)) || fail "ceph-osd did not start"
    log "ceph-osd did not start (attempt $attempt); making it again"
    sleep 2
  done

  radosgw --conf "$dir/ceph.conf" --name client.rgw.a >>"$dir/log/setup.log" 2>&1 || fail "radosgw did not start"

  local i
  for ((i = 0; i < 120; i++)); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then break; fi
    sleep 0.5
  done
  ((i < 120)) || fail "radosgw did not answer on 127.0.0.1:$port within 60 s"

  radosgw-admin --conf "$dir/ceph.conf" user create --uid=pm-test --display-name="pm test" \
    --access-key="$access_key" --secret="$secret_key" >>"$dir/log/setup.log" 2>&1 ||
    fail "radosgw-admin user create failed"

  # The bucket, through S3 itself; and proof that the gateway checks signatures:
  # the same request signed with a wrong secret must be refused.
  s3_put_bucket() {
    curl -sS -o /dev/null -w '%{http_code}' --aws-sigv4 "aws:amz:us-east-1:s3" --user "$access_key:$1" \
      -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -X PUT "http://127.0.0.1:$port/$2"
  }
  local code
  code=$(s3_put_bucket "wrong-$secret_key" "$bucket") || true
  [[ $code == 403 ]] || fail "a request signed with a wrong secret got $code, not 403"
  code=$(s3_put_bucket "$secret_key" "$bucket") || true
  [[ $code == 200 ]] || fail "creating bucket $bucket got $code"

  log "Ceph $(ceph-mon --version | awk '{print $3}') RADOS Gateway on 127.0.0.1:$port in $((SECONDS - started)) s (data in $dir)"
  cat <<ENV
export S3_ENDPOINT=http://127.0.0.1:$port
export S3_REGION=us-east-1
export S3_BUCKET=$bucket
export S3_ACCESS_KEY_ID=$access_key
export S3_SECRET_ACCESS_KEY=$secret_key
export S3_FORCE_PATH_STYLE=true
ENV
}

stop_daemon() {
  local pidfile=$1 pid i
  [[ -f "$pidfile" ]] || return 0
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || return 0
      sleep 0.2
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
}

stop() {
  local pidfile
  if [[ -d "$dir/run" ]]; then
    # radosgw first, then the OSD, the monitor last.
    for pidfile in "$dir"/run/client.rgw.*.pid "$dir"/run/osd.*.pid "$dir"/run/mon.*.pid; do
      stop_daemon "$pidfile"
    done
  fi
  rm -rf "$dir"
}

cd /

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
