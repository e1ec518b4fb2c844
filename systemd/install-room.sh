#!/usr/bin/env bash
# The room's install steps (docs/room.md). Run from a clone, as root:
#   sudo systemd/install-room.sh broker                 # on the broker host: Mosquitto, TLS, passwords, the ACL
#   sudo systemd/install-room.sh user NAME [--password-file F]  # on the broker host: add a table id, floor,
#                                                       # collector or production (F: no prompt; else asks)
#   sudo systemd/install-room.sh table CA.crt PASSWORD  # on a table (after install.sh): paho-mqtt, network, secrets
#   sudo systemd/install-room.sh services CA.crt        # the room's units: collector, floor, broadcast@TABLE
#   systemd/install-room.sh zone-acl ZONE TABLE...      # on a room's centre: the zone's ACL lines (config/room/acl-centre)
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
MOSQ=/etc/mosquitto
ETC=/etc/pokertable
PREFIX=/opt/pokertable

if [[ "${1:-}" == "zone-acl" ]]; then
    # Prints (needs no root) the lines config/room/acl-centre says to write by hand for one zone: its block, with
    # the nine lines shipped for t01 once per table of the zone, and each reader's deny line for the zone. Append
    # them to the centre's ACL:  systemd/install-room.sh zone-acl zone-a t01 t02 | sudo tee -a /etc/mosquitto/pokertable.acl
    zone="${2:?usage: $0 zone-acl ZONE TABLE... (ZONE: zone-<name>)}"
    shift 2
    if [[ ! "$zone" =~ ^zone-[A-Za-z0-9_-]{1,59}$ ]]; then
        echo "$zone: a zone's user is zone-<name> (letters, digits, - and _): the room reserves zone-* for them" >&2
        exit 2
    fi
    for table in "$@"; do
        if [[ ! "$table" =~ ^[A-Za-z0-9_-]{1,64}$ ]] || [[ "$table" =~ ^(floor|collector|production|director|zone-.*)$ ]]; then
            echo "$table: not a table id (letters, digits, - and _; not floor, collector, production, director, zone-*)" >&2
            exit 2
        fi
    done
    template="${SRC}/config/room/acl-centre"
    block="$(awk '/^user /{user=$2; next} user=="zone-a" && NF && !/^#/' "$template")"
    echo "user ${zone}"
    grep -v -e '/t0' -e '/director/' <<<"$block" | sed "s/zone-a/${zone}/g"
    for table in "$@"; do
        grep -F '/t01/' <<<"$block" | sed "s#/t01/#/${table}/#"
    done
    grep -F '/director/' <<<"$block"
    echo
    awk '/^user /{user=$2; next} user!="" && user !~ /^zone-/ && /\/zone-a\//{print user " " $0}' "$template" |
        while read -r reader line; do
            printf 'user %s\n%s\n\n' "$reader" "${line//zone-a/$zone}"
        done
    exit 0
fi

if [[ "$(id -u)" -ne 0 ]]; then
    echo "run as root: sudo $0 $*" >&2
    exit 1
fi

case "${1:-}" in
broker)
    if ! command -v mosquitto_passwd >/dev/null || { ! command -v mosquitto >/dev/null && [[ ! -x /usr/sbin/mosquitto ]]; } \
            || ! command -v gcc >/dev/null || [[ ! -f /usr/include/mosquitto_plugin.h ]]; then
        apt-get update
        apt-get install -y mosquitto mosquitto-clients gcc mosquitto-dev libmosquitto-dev
    fi
    # The plugin that binds client ids to users (config/room/clientid_guard.c, docs/room.md).
    install -d -m 0755 /usr/local/lib/pokertable
    gcc -O2 -Wall -shared -fPIC -o /usr/local/lib/pokertable/clientid_guard.so "${SRC}/config/room/clientid_guard.c"
    install -m 0644 "${SRC}/config/room/acl" "${MOSQ}/pokertable.acl"
    touch "${MOSQ}/pokertable.passwd"
    chown root:mosquitto "${MOSQ}/pokertable.passwd"
    chmod 0640 "${MOSQ}/pokertable.passwd"
    if [[ ! -f "${MOSQ}/certs/server.crt" || ! -f "${MOSQ}/certs/server.key" || ! -f "${MOSQ}/certs/ca.crt" ]]; then
        echo "put the broker's certificate in ${MOSQ}/certs/ (ca.crt, server.crt, server.key readable by mosquitto)" >&2
        echo "then run this again; docs/room.md shows how to make them with openssl" >&2
        exit 1
    fi
    # Debian's mosquitto.conf already sets persistence_location (and persistence): the room's file
    # sets the rest (autosave every 5 s, queue and message sizes): config/room/mosquitto.conf.
    {
        cat <<CONF
# The poker room (installed by pokertable systemd/install-room.sh broker)
listener 8883
cafile ${MOSQ}/certs/ca.crt
certfile ${MOSQ}/certs/server.crt
keyfile ${MOSQ}/certs/server.key
tls_version tlsv1.2
allow_anonymous false
password_file ${MOSQ}/pokertable.passwd
acl_file ${MOSQ}/pokertable.acl
plugin /usr/local/lib/pokertable/clientid_guard.so
CONF
        grep -v '^persistence true$' "${SRC}/config/room/mosquitto.conf"
    } > "${MOSQ}/conf.d/pokertable.conf"
    systemctl restart mosquitto
    echo "Mosquitto listens on 8883 (TLS) with the room's ACL; add users with: sudo $0 user NAME"
    ;;
user)
    name="${2:?usage: $0 user NAME [--password-file FILE] (a table id, floor, collector, production, director, zone-*)}"
    if [[ "${3:-}" == "--password-file" ]]; then
        file="${4:?usage: $0 user NAME --password-file FILE}"
        password="$(head -n 1 "$file")"
        if [[ -z "$password" ]]; then
            echo "$file: empty; put the password on its first line" >&2
            exit 1
        fi
        # On stdin (twice: mosquitto_passwd asks again), not on the command line where ps shows it.
        printf '%s\n%s\n' "$password" "$password" | mosquitto_passwd "${MOSQ}/pokertable.passwd" "$name" >/dev/null
        echo "user $name added; its client reads the password from $file (--password-file, or password_file in [room])"
    elif [[ -n "${3:-}" ]]; then
        echo "usage: $0 user NAME [--password-file FILE]" >&2
        exit 2
    else
        mosquitto_passwd "${MOSQ}/pokertable.passwd" "$name"
    fi
    systemctl reload mosquitto 2>/dev/null || systemctl restart mosquitto
    ;;
table)
    ca="${2:?usage: $0 table CA.crt PASSWORD-FILE}"
    password="${3:?usage: $0 table CA.crt PASSWORD-FILE}"
    "${PREFIX}/venv/bin/pip" install "paho-mqtt>=2.0,<3"
    install -d -m 0750 -g pokertable "${ETC}/room"
    install -m 0644 "$ca" "${ETC}/room/ca.crt"
    install -m 0640 -g pokertable "$password" "${ETC}/room/password"
    install -d -m 0755 /etc/systemd/system/pokertable.service.d
    install -m 0644 "${SRC}/systemd/pokertable.service.d/room.conf" /etc/systemd/system/pokertable.service.d/room.conf
    systemctl daemon-reload
    if ! grep -q '^\[room\]' "${ETC}/table.toml"; then
        echo "add to ${ETC}/table.toml (then: systemctl restart pokertable):"
        printf '\n[room]\nroom = "main"\ntable = "t01"\nbroker = "broker.example"\ntls = true\n'
        printf 'ca_file = "room/ca.crt"\npassword_file = "room/password"\ndealer = ""\n'
    fi
    ;;
services)
    ca="${2:?usage: $0 services CA.crt}"
    install -d -m 0755 "${ETC}/room"
    install -m 0644 "$ca" "${ETC}/room/ca.crt"
    for unit in pokertable-collector.service pokertable-floor.service pokertable-broadcast@.service; do
        install -m 0644 "${SRC}/systemd/${unit}" "/etc/systemd/system/${unit}"
    done
    if [[ ! -f "${ETC}/room.env" ]]; then
        printf 'ROOM=main\nBROKER=broker.example\n# COLLECT_DB=postgresql://collector@db.example/pokertable\n# COLLECT_ARGS=--listen 0.0.0.0:8097 --hole-cards all\n' \
            > "${ETC}/room.env"
    fi
    systemctl daemon-reload
    echo "set ROOM and BROKER in ${ETC}/room.env; put each service's broker password in"
    echo "${ETC}/room/collector.password, floor.password, production.password (mode 0600, root's: systemd hands"
    echo "it to the service as a credential); then: systemctl enable --now pokertable-collector pokertable-floor"
    echo "and pokertable-broadcast@TABLE for each table on air"
    ;;
*)
    sed -n '2,10p' "$0" >&2
    exit 2
    ;;
esac
