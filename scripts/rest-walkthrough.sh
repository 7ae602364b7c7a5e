#!/usr/bin/env bash
# REST-only walk-through: sign up, pin, favorite, board, comment. Usage: BASE=http://localhost:8080 bash this
set -euo pipefail
B=${BASE:-http://localhost:8080}; JAR=$(mktemp)
token() { awk '$6=="XSRF-TOKEN"{print $7}' "$JAR"; }
call() { # METHOD PATH [JSON]
  curl -sS -b "$JAR" -c "$JAR" -X "$1" -H "X-XSRF-TOKEN: $(token)" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$B$2"; echo; }
curl -sS -b "$JAR" -c "$JAR" "$B/api/auth/" >/dev/null          # any GET sets XSRF-TOKEN
U="script$RANDOM"
call POST /api/auth/signup "{\"email\":\"$U@example.com\",\"username\":\"$U\",\"password\":\"a long password\"}"
PIN=$(call POST /api/pins/ '{"title":"From a script","imageUrl":"https://example.com/cat.jpg","description":"hi"}')
echo "$PIN"; ID=$(echo "$PIN" | sed -E 's/^\{"id":([0-9]+).*/\1/')
call POST /api/favorites/ "{\"pin_id\":$ID}"
BOARD=$(call POST /api/boards/ '{"name":"Scripted"}'); echo "$BOARD"
BID=$(echo "$BOARD" | sed -E 's/^\{"id":([0-9]+).*/\1/')
call POST "/api/boards/$BID/pins" "{\"pin_id\":$ID}"
call POST "/api/comments/pins/$ID/comments" '{"text":"Nice one"}'
call GET /api/boards/
