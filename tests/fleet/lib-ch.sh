# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the fleet tests and tests/fleet/bench.sh: ClickHouse servers
# of their own (Debian's clickhouse-server), each on free loopback ports
# with its data in a directory of the caller's, a cluster of them when
# asked, and their end. The caller traps EXIT to call ch_stop_all, so no
# server outlives it, whatever ends it.
#
#   ch_ports N             N free TCP ports of 127.0.0.1, one line
#   ch_start NAME DIR [CLUSTER [TCP]]
#                          a server in DIR (config written there), its
#                          port in $ch_tcp_NAME (TCP, or a free one),
#                          its HTTP port in $ch_http_NAME;
#                          CLUSTER: the name of a
#                          cluster whose shards are the servers of
#                          $ch_shards ("tcp tcp ...", one replica each)
#                          (CH_NOWAIT=1: started, not waited for)
#   ch_wait NAME           wait until server NAME answers, or fail
#   ch_q NAME ARGS...      clickhouse-client to server NAME
#   ch_stop_all            TERM, then KILL after 10 s, every server started
#
# Memory: ClickHouse 18.16 has no server-wide max_server_memory_usage (19.x
# and later); the profile bounds every query (max_memory_usage) and all of
# them together (max_memory_usage_for_all_queries), and the caches are
# small. Distributed joins: distributed_product_mode 'local' (the tables
# of mmscope export --cluster shard by recording: mmscope-export(5)).
ch_pids=""

ch_have() {
	command -v clickhouse-server >/dev/null && command -v clickhouse-client >/dev/null
}

ch_ports() {
	python3 -c '
import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$1"
}

ch_start() {
	_name=$1 _dir=$2 _cluster=$3 _tcp=$4
	set -- $(ch_ports 3)
	[ -z "$_tcp" ] || set -- "$_tcp" "$2" "$3"
	eval "ch_tcp_$_name=$1 ch_http_$_name=$2"
	mkdir -p "$_dir/data" "$_dir/tmp" "$_dir/user_files" "$_dir/format_schemas"
	cat >"$_dir/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default>
    <max_memory_usage>${CH_QUERY_MEMORY:-2000000000}</max_memory_usage>
    <max_memory_usage_for_all_queries>${CH_ALL_MEMORY:-3000000000}</max_memory_usage_for_all_queries>
    <distributed_product_mode>local</distributed_product_mode>
    <insert_distributed_sync>1</insert_distributed_sync>
  </default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
XML
	_remote=""
	if [ -n "$_cluster" ]; then
		_remote="<remote_servers><$_cluster>"
		for _p in $ch_shards; do
			_remote="$_remote<shard><replica><host>127.0.0.1</host><port>$_p</port></replica></shard>"
		done
		_remote="$_remote</$_cluster></remote_servers>"
	fi
	cat >"$_dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$_dir/server.log</log>
    <errorlog>$_dir/server.err</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$1</tcp_port>
  <http_port>$2</http_port>
  <interserver_http_port>$3</interserver_http_port>
  <path>$_dir/data/</path>
  <tmp_path>$_dir/tmp/</tmp_path>
  <user_files_path>$_dir/user_files/</user_files_path>
  <format_schema_path>$_dir/format_schemas/</format_schema_path>
  <users_config>$_dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  $_remote
</yandex>
XML
	clickhouse-server --config-file="$_dir/config.xml" >"$_dir/stdout" 2>&1 &
	eval "ch_pid_$_name=$! ch_dir_$_name=\$_dir"
	ch_pids="$ch_pids $!"
	[ -n "${CH_NOWAIT:-}" ] || ch_wait "$_name"
}

ch_wait() {	# NAME: until it answers (30 s at most)
	_name=$1
	_pid=$(eval echo "\$ch_pid_$_name") _dir=$(eval echo "\$ch_dir_$_name")
	for _ in $(seq 150); do
		ch_q "$_name" -q "SELECT 1" >/dev/null 2>&1 && return 0
		kill -0 "$_pid" 2>/dev/null || break
		sleep 0.2
	done
	echo "clickhouse-server $_name did not start: $(tail -3 "$_dir/server.err" "$_dir/stdout" 2>/dev/null)" >&2
	return 1
}

ch_q() {
	_n=$1
	shift
	clickhouse-client --host 127.0.0.1 --port "$(eval echo "\$ch_tcp_$_n")" "$@"
}

ch_stop_all() {
	for _p in $ch_pids; do
		kill "$_p" 2>/dev/null
	done
	for _p in $ch_pids; do
		for _ in $(seq 50); do
			kill -0 "$_p" 2>/dev/null || break
			sleep 0.2
		done
		kill -9 "$_p" 2>/dev/null
	done
	ch_pids=""
}

# ch_schema_each NAME SQL: the statements of `mmscope export --schema
# clickhouse --cluster C` on server NAME alone: ON CLUSTER needs the
# cluster's distributed DDL (ZooKeeper), which a test has not, so it is
# taken out and the same statements run on every server.
ch_schema_each() {
	sed 's/ ON CLUSTER [A-Za-z0-9_]*//' "$2" | ch_q "$1" --multiquery
}
