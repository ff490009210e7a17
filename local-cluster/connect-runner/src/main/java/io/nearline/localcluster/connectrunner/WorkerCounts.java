/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.localcluster.connectrunner;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.jobs.kit.processes.ConnectJmx;
import java.util.HashMap;
import java.util.Map;

/**
 * The connector's counters as its worker publishes them (the tasks' plugin metrics, over JMX on
 * loopback), added into a run's in-memory counters for its progress lines and summary. A task
 * started again (a rebalance, another worker after a kill) counts from zero: what it counts is added
 * on top, so the totals, like an engine's after a restart, include the events read again.
 */
final class WorkerCounts implements AutoCloseable {

    private final InMemoryMetrics into;
    private final String connectorName;
    /** Last value seen per task and counter, of the worker watched now. */
    private final Map<String, Double> last = new HashMap<>();

    private final Thread poller;
    private volatile int port = -1;
    private ConnectJmx jmx;
    private int connectedTo = -1;
    /** The worker whose values {@link #last} holds. */
    private int counted = -1;

    WorkerCounts(InMemoryMetrics into, String connectorName) {
        this.into = into;
        this.connectorName = connectorName;
        this.poller = new Thread(this::poll, "connect-counts");
        poller.setDaemon(true);
        poller.start();
    }

    /** Reads the worker whose JMX listens on {@code jmxPort} from now on (a new worker counts from zero). */
    void watch(int jmxPort) {
        port = jmxPort;
    }

    private void poll() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                readOnce();
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void readOnce() {
        try {
            if (connectedTo != port) {
                disconnect();
                jmx = ConnectJmx.connect("127.0.0.1", port);
                connectedTo = port;
                if (counted != port) { // another worker: its tasks count from zero
                    counted = port;
                    last.clear();
                }
            }
            jmx.taskCounters(connectorName).forEach(this::add);
        } catch (Exception e) {
            disconnect(); // not up yet, killed, or a task between lives: read again next time
        }
    }

    private void add(String taskCounter, double value) {
        double before = last.getOrDefault(taskCounter, 0.0);
        double delta = value >= before ? value - before : value; // below: the task started again from zero
        last.put(taskCounter, value);
        if (delta > 0) {
            into.counter(taskCounter.substring(taskCounter.indexOf('/') + 1)).inc(Math.round(delta));
        }
    }

    private void disconnect() {
        if (jmx != null) {
            jmx.close();
            jmx = null;
        }
        connectedTo = -1;
    }

    @Override
    public void close() {
        poller.interrupt();
        try {
            poller.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            disconnect();
        }
    }
}
