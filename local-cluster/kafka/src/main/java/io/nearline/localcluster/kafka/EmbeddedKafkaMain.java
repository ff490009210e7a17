package io.nearline.localcluster.kafka;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The embedded broker as its own process: {@code java -jar nearline-kafka.jar DIR [topic:partitions ...]}.
 * Prints {@code BOOTSTRAP_SERVERS=host:port} on stdout once clients can connect, then runs until its
 * standard input closes (the parent is gone) or it is terminated; either way it shuts down cleanly.
 */
public final class EmbeddedKafkaMain {

    public static final String READY_PREFIX = "BOOTSTRAP_SERVERS=";

    private EmbeddedKafkaMain() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: java -jar nearline-kafka.jar DIR [topic:partitions ...]");
            System.exit(2);
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(Path.of(args[0]));
        Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "kafka-shutdown"));
        Map<String, Integer> topics = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] parts = args[i].split(":");
            topics.put(parts[0], parts.length > 1 ? Integer.parseInt(parts[1]) : 1);
        }
        if (!topics.isEmpty()) {
            kafka.createTopics(topics);
        }
        System.out.println(READY_PREFIX + kafka.bootstrapServers());
        System.out.flush();
        while (System.in.read() >= 0) {
            // keep running until the parent closes our stdin
        }
        kafka.close();
        System.exit(0);
    }
}
