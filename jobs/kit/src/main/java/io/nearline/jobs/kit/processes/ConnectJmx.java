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
package io.nearline.jobs.kit.processes;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A Kafka Connect worker's JMX, for the cache sink's counters: each task's plugin metrics
 * ({@code kafka.connect:type=plugins,connector=NAME,task=N}), under the jobs' names.
 */
public final class ConnectJmx implements AutoCloseable {

    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private ConnectJmx(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    /** The JVM options that open a worker's JMX on {@code host:port}, without authentication: loopback or a private namespace only. */
    public static List<String> jvmOptions(String host, int port) {
        return List.of(
                "-Dcom.sun.management.jmxremote.port=" + port,
                "-Dcom.sun.management.jmxremote.rmi.port=" + port,
                "-Dcom.sun.management.jmxremote.host=" + host,
                "-Djava.rmi.server.hostname=" + host,
                "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false");
    }

    public static ConnectJmx connect(String host, int port) throws IOException {
        return new ConnectJmx(JMXConnectorFactory.connect(
                new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi")));
    }

    /** Each task's counters of connector {@code name}: "task=N/counter" to its value (histograms' -avg and -max left out). */
    public Map<String, Double> taskCounters(String name) throws IOException {
        Map<String, Double> out = new HashMap<>();
        try {
            for (ObjectName task :
                    server.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + name + ",*"), null)) {
                if (task.getKeyPropertyList().size() > 3) {
                    continue; // a labelled series (by table, partition, bucket): Prometheus's, not the run's counts
                }
                for (MBeanAttributeInfo attribute : server.getMBeanInfo(task).getAttributes()) {
                    String counter = attribute.getName();
                    if (!counter.endsWith("-avg")
                            && !counter.endsWith("-max")
                            && server.getAttribute(task, counter) instanceof Number n) {
                        out.put("task=" + task.getKeyProperty("task") + "/" + counter, n.doubleValue());
                    }
                }
            }
        } catch (JMException e) {
            throw new IOException("reading the worker's JMX: " + e.getMessage(), e);
        }
        return out;
    }

    /** One counter of connector {@code name}, summed over its tasks. */
    public long sum(String name, String counter) throws IOException {
        double sum = 0;
        for (Map.Entry<String, Double> e : taskCounters(name).entrySet()) {
            if (e.getKey().endsWith("/" + counter)) {
                sum += e.getValue();
            }
        }
        return Math.round(sum);
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // gone already
        }
    }
}
