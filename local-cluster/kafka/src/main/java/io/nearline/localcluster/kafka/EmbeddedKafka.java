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
package io.nearline.localcluster.kafka;

import io.nearline.common.testkit.LocalProcesses;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real Apache Kafka broker in KRaft mode (broker and controller in one node), for tests and local
 * runs. Every listener binds 127.0.0.1 on a free port, or the address and ports a cluster gives.
 *
 * <p>Lifecycle: {@link #start} formats the log directory (like {@code kafka-storage format}) and
 * returns once the broker accepts clients; a directory formatted before is reused with its data.
 * {@link #close} shuts the broker down and waits for it; it is idempotent. Not restartable: start a
 * new instance on the same directory instead.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private final KafkaRaftServer server;
    private final String host;
    private final int port;
    private final int controllerPort;
    private final Path dir;
    private final BrokerSecurity security;
    private boolean closed;

    private EmbeddedKafka(
            KafkaRaftServer server, String host, int port, int controllerPort, Path dir, BrokerSecurity security) {
        this.server = server;
        this.host = host;
        this.port = port;
        this.controllerPort = controllerPort;
        this.dir = dir;
        this.security = security;
    }

    public static EmbeddedKafka start(Path dir) {
        return start(dir, "127.0.0.1", 0, 0);
    }

    /**
     * A broker listening on {@code host} (an address of this machine, or of the network namespace it
     * runs in); a port of 0 takes a free one. A cluster's broker keeps its ports across restarts.
     */
    public static EmbeddedKafka start(Path dir, String host, int port, int controllerPort) {
        return start(dir, host, port, controllerPort, null);
    }

    /**
     * As {@link #start(Path, String, int, int)}, with clients taken only as {@code security} says (null:
     * plaintext). The controller's listener stays plaintext: it serves the broker alone, never a client.
     */
    public static EmbeddedKafka start(Path dir, String host, int port, int controllerPort, BrokerSecurity security) {
        try {
            Files.createDirectories(dir);
            int brokerPort = port > 0 ? port : LocalProcesses.freePort();
            controllerPort = controllerPort > 0 ? controllerPort : LocalProcesses.freePort();
            Path logDir = dir.resolve("kraft-logs");
            Properties props = new Properties();
            props.put("process.roles", "broker,controller");
            props.put("node.id", "1");
            props.put("controller.quorum.voters", "1@" + host + ":" + controllerPort);
            String listener = security == null ? "PLAINTEXT" : security.protocol();
            props.put(
                    "listeners",
                    listener + "://" + host + ":" + brokerPort + ",CONTROLLER://" + host + ":" + controllerPort);
            props.put("advertised.listeners", listener + "://" + host + ":" + brokerPort);
            props.put("controller.listener.names", "CONTROLLER");
            props.put("inter.broker.listener.name", listener);
            props.put("listener.security.protocol.map", listener + ":" + listener + ",CONTROLLER:PLAINTEXT");
            if (security != null) {
                props.putAll(security.brokerProperties());
            }
            props.put("log.dirs", logDir.toString());
            // one node: everything internal has one replica; small defaults start fast
            props.put("offsets.topic.replication.factor", "1");
            props.put("offsets.topic.num.partitions", "4");
            props.put("transaction.state.log.replication.factor", "1");
            props.put("transaction.state.log.min.isr", "1");
            props.put("share.coordinator.state.topic.replication.factor", "1");
            props.put("share.coordinator.state.topic.min.isr", "1");
            props.put("group.initial.rebalance.delay.ms", "0");
            props.put("num.partitions", "1");
            props.put("auto.create.topics.enable", "true");
            props.put("log.retention.hours", "-1");
            KafkaConfig config = KafkaConfig.fromProps(props, false);

            if (!Files.exists(logDir.resolve("meta.properties"))) {
                new Formatter()
                        .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                        .setClusterId(Uuid.randomUuid().toString())
                        .setNodeId(1)
                        .setControllerListenerName("CONTROLLER")
                        .setMetadataLogDirectory(logDir.toString())
                        .addDirectory(logDir.toString())
                        .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                        .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                        .run();
            }
            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            EmbeddedKafka kafka = new EmbeddedKafka(server, host, brokerPort, controllerPort, dir, security);
            kafka.awaitReady();
            return kafka;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot start the embedded Kafka broker in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** {@code host:port} for clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return host + ":" + port;
    }

    /** Stops this broker and starts it again on the same addresses with the same data, as a restarted server. */
    public EmbeddedKafka restart() {
        close();
        return start(dir, host, port, controllerPort, security);
    }

    public Path dir() {
        return dir;
    }

    /** Creates topics (name → partitions) with one replica; existing topics are left as they are. */
    public void createTopics(Map<String, Integer> partitionsByTopic) {
        try (Admin admin = admin()) {
            List<NewTopic> topics = partitionsByTopic.entrySet().stream()
                    .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) 1))
                    .toList();
            try {
                admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topics " + partitionsByTopic + ": " + e.getMessage(), e);
        }
    }

    /** An admin client of this broker; of a secured one, as the broker's own user. */
    public Admin admin() {
        Map<String, Object> props = new HashMap<>();
        if (security != null) {
            props.putAll(security.clientProperties());
        }
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        return Admin.create(props);
    }

    private void awaitReady() throws Exception {
        try (Admin admin = admin()) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            server.shutdown();
            server.awaitShutdown();
        }
    }
}
