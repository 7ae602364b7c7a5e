#!/usr/bin/env bash
# REST-only walk-through: sign up, pin, favorite, board, comment, then walk a paged list by its
# cursors. Usage: BASE=http://localhost:8080 bash this
set -euo pipefail
B=${BASE:-http://localhost:8080}; JAR=$(mktemp)
token() { awk '$6=="XSRF-TOKEN"{print $7}' "$JAR"; }
call() { # METHOD PATH [JSON]
  curl -sS -b "$JAR" -c "$JAR" -X "$1" -H "X-XSRF-TOKEN: $(token)" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$B$2"; echo; }
curl -sS -b "$JAR" -c "$JAR" "$B/api/auth/" >/dev/null          # any GET sets XSRF-TOKEN
U="script$RANDOM"
USER=$(call POST /api/auth/signup "{\"email\":\"$U@example.com\",\"username\":\"$U\",\"password\":\"a long password\"}")
echo "$USER"; UID_=$(echo "$USER" | sed -E 's/^\{"id":([0-9]+).*/\1/')
PIN=$(call POST /api/pins/ '{"title":"From a script","imageUrl":"https://example.com/cat.jpg","description":"hi"}')
echo "$PIN"; ID=$(echo "$PIN" | sed -E 's/^\{"id":([0-9]+).*/\1/')
call POST /api/favorites/ "{\"pin_id\":$ID}"
BOARD=$(call POST /api/boards/ '{"name":"Scripted"}'); echo "$BOARD"
BID=$(echo "$BOARD" | sed -E 's/^\{"id":([0-9]+).*/\1/')
call POST "/api/boards/$BID/pins" "{\"pin_id\":$ID}"
call POST "/api/comments/pins/$ID/comments" '{"text":"Nice one"}'
call GET /api/boards/
# Every list pages: follow nextCursor until it is null (here two pins a page over this user's pins).
call POST /api/pins/ '{"title":"Second","imageUrl":"https://example.com/two.jpg"}' >/dev/null
call POST /api/pins/ '{"title":"Third","imageUrl":"https://example.com/three.jpg"}' >/dev/null
CURSOR=""; PAGES=0; WALKED=0
while :; do
  PAGE=$(call GET "/api/pins/?userId=$UID_&limit=2${CURSOR:+&cursor=$CURSOR}")
  PAGES=$((PAGES + 1)); WALKED=$((WALKED + $(echo "$PAGE" | grep -o '"title":' | wc -l)))
  CURSOR=$(echo "$PAGE" | sed -E 's/.*"nextCursor":(null|"([^"]*)").*/\2/')
  [ -z "$CURSOR" ] && break
done
echo "{\"pages\":$PAGES,\"walked\":$WALKED}"
