#!/usr/bin/env bash
# Starts a Samza container as bin/run-container.sh does, with Prometheus's JMX exporter agent on it:
# the container's metrics (Samza's JMX reporter, metrics.reporters=jmx) on http://HOST:PORT/metrics,
# named by config/samza-jmx-exporter.yaml as jobs/monitoring's recording rules read them.
#
#   task.execute=bin/run-container-exporting.sh BASE_PORT
#
# PORT is BASE_PORT plus the container's id (SAMZA_CONTAINER_ID, set by Samza's YARN launcher), so the
# containers of one job that land on one host listen on ports of their own. A job with N containers
# takes the ports BASE_PORT to BASE_PORT+N-1 on whichever hosts YARN gives it.
set -euo pipefail

if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "run-container-exporting.sh: the first argument is the exporter's base port, as in" \
       "task.execute=bin/run-container-exporting.sh 9400" >&2
  exit 2
fi
base_port=$1
shift
container=${SAMZA_CONTAINER_ID:-0}
if [[ ! $container =~ ^[0-9]+$ ]]; then
  echo "run-container-exporting.sh: SAMZA_CONTAINER_ID '$container' is not a number; the exporter's" \
       "port is BASE_PORT plus it" >&2
  exit 2
fi
package="$(cd "$(dirname "$0")/.." && pwd)"
port=$((base_port + container))
export JAVA_OPTS="${JAVA_OPTS:-} -javaagent:$package/agent/jmx_prometheus_javaagent.jar=$port:$package/config/samza-jmx-exporter.yaml"
exec "$package/bin/run-container.sh" "$@"
