#!/usr/bin/env bash
# CI three times in a row on fresh clones of this repository's HEAD, with `npm run bench:live`
# looping beside them as a CPU-heavy neighbour: a test that only passes on an idle machine shows up
# here. Usage: bash scripts/ci-under-load.sh [runs]   (logs in /tmp/ci-under-load/)
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-3}
OUT=/tmp/ci-under-load; rm -rf "$OUT"; mkdir -p "$OUT"
COMMIT=$(git -C "$REPO" rev-parse HEAD)
( while [ ! -f "$OUT/done" ]; do
    (cd "$REPO" && npm run bench:live -- --watchers 300 --actions 60 > "$OUT/hog-last.log" 2>&1)
    echo "hog run $(date +%T) exit $?" >> "$OUT/hog.log"
  done ) &
HOG=$!
RC=0
for i in $(seq 1 "$RUNS"); do
  rm -rf "$OUT/clone" && git clone -q "$REPO" "$OUT/clone" && git -C "$OUT/clone" checkout -q "$COMMIT"
  START=$(date +%s)
  (cd "$OUT/clone" && CI=true bash .ci/run > "$OUT/run$i.log" 2>&1)
  RC=$?
  echo "run $i commit ${COMMIT:0:7} exit $RC seconds $(( $(date +%s) - START ))" | tee -a "$OUT/summary.log"
  [ $RC -ne 0 ] && break
done
touch "$OUT/done"; wait $HOG
exit $RC
