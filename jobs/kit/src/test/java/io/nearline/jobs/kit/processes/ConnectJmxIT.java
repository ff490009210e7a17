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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.testkit.LocalProcesses;
import java.lang.management.ManagementFactory;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cache sink's counters read as the tools read a Connect worker's: over JMX on loopback (a
 * connector server in this JVM, with beans named and shaped as the worker's plugin metrics), each task's
 * counters by name, averages, maxima and the labelled Prometheus series left out, sums over the tasks.
 */
class ConnectJmxIT {

    private final MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new ArrayList<>();
    private Registry registry;
    private JMXConnectorServer server;
    private int port;

    /** Plugin metrics as Connect's worker exposes them: attributes named as the counters are. */
    private record Metrics(Map<String, Object> values) implements DynamicMBean {
        @Override
        public Object getAttribute(String name) {
            return values.get(name);
        }

        @Override
        public void setAttribute(Attribute attribute) {}

        @Override
        public AttributeList getAttributes(String[] names) {
            AttributeList list = new AttributeList();
            for (String n : names) {
                list.add(new Attribute(n, values.get(n)));
            }
            return list;
        }

        @Override
        public AttributeList setAttributes(AttributeList attributes) {
            return new AttributeList();
        }

        @Override
        public Object invoke(String action, Object[] params, String[] signature) {
            return null;
        }

        @Override
        public MBeanInfo getMBeanInfo() {
            MBeanAttributeInfo[] attributes = values.entrySet().stream()
                    .map(e -> new MBeanAttributeInfo(
                            e.getKey(), e.getValue().getClass().getName(), e.getKey(), true, false, false))
                    .toArray(MBeanAttributeInfo[]::new);
            return new MBeanInfo(Metrics.class.getName(), "plugin metrics", attributes, null, null, null);
        }
    }

    private void register(String name, Map<String, Object> values) throws Exception {
        ObjectName object = new ObjectName(name);
        beans.registerMBean(new Metrics(values), object);
        registered.add(object);
    }

    @BeforeEach
    void start() throws Exception {
        System.setProperty("java.rmi.server.hostname", "127.0.0.1");
        port = LocalProcesses.freePort();
        registry = LocateRegistry.createRegistry(port);
        server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1:" + port + "/jndi/rmi://127.0.0.1:" + port + "/jmxrmi"),
                null,
                beans);
        server.start();
        register(
                "kafka.connect:type=plugins,connector=cache-sink,task=0",
                Map.of(
                        "events.received",
                        120.0,
                        "write.applied",
                        100L,
                        "write.latency-ms-avg",
                        3.5,
                        "write.latency-ms-max",
                        9.0));
        register(
                "kafka.connect:type=plugins,connector=cache-sink,task=1",
                Map.of("events.received", 30.0, "state", "RUNNING"));
        register(
                "kafka.connect:type=plugins,connector=cache-sink,task=0,table=profile",
                Map.of("events.received", 120.0));
        register("kafka.connect:type=plugins,connector=other,task=0", Map.of("events.received", 7.0));
    }

    @AfterEach
    void stop() throws Exception {
        for (ObjectName name : registered) {
            beans.unregisterMBean(name);
        }
        server.stop();
        UnicastRemoteObject.unexportObject(registry, true);
    }

    @Test
    void eachTasksCountersAreReadByNameAndSummedOverTheTasks() throws Exception {
        try (ConnectJmx jmx = ConnectJmx.connect("127.0.0.1", port)) {
            assertEquals(
                    Map.of(
                            "task=0/events.received",
                            120.0,
                            "task=0/write.applied",
                            100.0,
                            "task=1/events.received",
                            30.0),
                    jmx.taskCounters("cache-sink"),
                    "no -avg, -max, text or labelled series, nothing of another connector");
            assertEquals(150, jmx.sum("cache-sink", "events.received"));
            assertEquals(100, jmx.sum("cache-sink", "write.applied"));
            assertEquals(0, jmx.sum("cache-sink", "write.retries"), "a counter no task has");
            assertEquals(Map.of(), jmx.taskCounters("no-such-connector"));
        }
    }

    @Test
    void theWorkersJmxOptionsOpenItOnTheAddressGivenWithoutAuthentication() {
        List<String> options = ConnectJmx.jvmOptions("10.0.3.2", 9999);
        assertTrue(options.contains("-Dcom.sun.management.jmxremote.host=10.0.3.2"));
        assertTrue(options.contains("-Djava.rmi.server.hostname=10.0.3.2"), "its stubs name that address too");
        assertTrue(options.contains("-Dcom.sun.management.jmxremote.rmi.port=9999"), "one port to reach");
    }
}
