#!/usr/bin/env bash
# REST-only walk-through with a personal access token: no cookie jar, no anti-forgery header.
# Make a token on the Tokens screen (profile menu → Tokens) or with POST /api/tokens from a
# signed-in session, then: BASE=http://localhost:8080 TOKEN=pb_… bash this
# It checks who it is, saves a pin with the page it came from, favorites it, files it on a new
# board, comments on it, asks which of its pins came from that page, and walks a paged list.
set -euo pipefail
B=${BASE:-http://localhost:8080}
: "${TOKEN:?set TOKEN to a personal access token (pb_…)}"
call() { # METHOD PATH [JSON]: prints the answer; fails on any status of 400 or more
  curl -sS --fail-with-body -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$B$2"; echo; }
id_of() { sed -E 's/^\{"id":([0-9]+).*/\1/'; }
ME=$(call GET /api/auth/); echo "$ME"
UID_=$(echo "$ME" | sed -E 's/.*"user":\{"id":([0-9]+).*/\1/')
PAGE='https://example.com/articles/cats'
PIN=$(call POST /api/pins/ "{\"title\":\"From a token\",\"imageUrl\":\"https://example.com/cat.jpg\",\"description\":\"hi\",\"sourceUrl\":\"$PAGE\"}")
echo "$PIN"; ID=$(echo "$PIN" | id_of)
call POST /api/favorites/ "{\"pin_id\":$ID}"
BOARD=$(call POST /api/boards/ '{"name":"Tokened"}'); echo "$BOARD"
BID=$(echo "$BOARD" | id_of)
call POST "/api/boards/$BID/pins" "{\"pin_id\":$ID}"
call POST "/api/comments/pins/$ID/comments" '{"text":"Nice one"}'
call GET "/api/pins/lookup?sourceUrl=https%3A%2F%2Fexample.com%2Farticles%2Fcats"
# Every list pages: follow nextCursor until it is null (two pins a page over this user's pins).
call POST /api/pins/ '{"title":"Second","imageUrl":"https://example.com/two.jpg"}' >/dev/null
call POST /api/pins/ '{"title":"Third","imageUrl":"https://example.com/three.jpg"}' >/dev/null
CURSOR=""; PAGES=0; WALKED=0
while :; do
  PAGE_=$(call GET "/api/pins/?userId=$UID_&limit=2${CURSOR:+&cursor=$CURSOR}")
  PAGES=$((PAGES + 1)); WALKED=$((WALKED + $(echo "$PAGE_" | grep -o '"title":' | wc -l)))
  CURSOR=$(echo "$PAGE_" | sed -E 's/.*"nextCursor":(null|"([^"]*)").*/\2/')
  [ -z "$CURSOR" ] && break
done
echo "{\"pages\":$PAGES,\"walked\":$WALKED}"
