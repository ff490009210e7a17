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

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded broker as its own process:
 * {@code java -jar nearline-kafka.jar [--host H --port P --controller-port C] [--security FILE] [--detached] DIR
 * [topic:partitions ...]}, where FILE is a {@link BrokerSecurity} written for it.
 * Prints {@code BOOTSTRAP_SERVERS=host:port} on stdout once clients can connect. Attached (the
 * default, for the runners) it runs until its standard input closes (the parent is gone); detached
 * (a local cluster's broker) until it is terminated. Either way it shuts down cleanly.
 */
public final class EmbeddedKafkaMain {

    public static final String READY_PREFIX = "BOOTSTRAP_SERVERS=";

    private EmbeddedKafkaMain() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        String host = "127.0.0.1";
        int port = 0;
        int controllerPort = 0;
        boolean detached = false;
        BrokerSecurity security = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--host" -> host = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--controller-port" -> controllerPort = Integer.parseInt(args[++i]);
                case "--detached" -> detached = true;
                case "--security" -> security = BrokerSecurity.read(Path.of(args[++i]));
                default -> rest.add(args[i]);
            }
        }
        if (rest.isEmpty()) {
            System.err.println("usage: java -jar nearline-kafka.jar [--host H --port P --controller-port C]"
                    + " [--security FILE] [--detached] DIR [topic:partitions ...]");
            System.exit(2);
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(Path.of(rest.get(0)), host, port, controllerPort, security);
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            kafka.close();
                            closed.countDown();
                        },
                        "kafka-shutdown"));
        Map<String, Integer> topics = new LinkedHashMap<>();
        for (String topic : rest.subList(1, rest.size())) {
            String[] parts = topic.split(":");
            topics.put(parts[0], parts.length > 1 ? Integer.parseInt(parts[1]) : 1);
        }
        if (!topics.isEmpty()) {
            kafka.createTopics(topics);
        }
        System.out.println(READY_PREFIX + kafka.bootstrapServers());
        System.out.flush();
        if (detached) {
            closed.await(); // until terminated: the shutdown hook closes the broker
            return;
        }
        while (System.in.read() >= 0) {
            // keep running until the parent closes our stdin
        }
        kafka.close();
        System.exit(0);
    }
}
