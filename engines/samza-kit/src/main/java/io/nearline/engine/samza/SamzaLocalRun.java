package io.nearline.engine.samza;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Samza settings every Nearline app runs with on the local application runner: a passthrough
 * coordinator and one container (threads = the job's parallelism), Kafka checkpoints, one Kafka
 * system, and every Nearline setting passed through so tasks read them back.
 */
public final class SamzaLocalRun {

    private SamzaLocalRun() {
    }

    public static Map<String, String> config(Map<String, String> nearline, String system, String appName, int threads,
                                             Duration commitInterval, String bootstrapServers) {
        Map<String, String> samza = new LinkedHashMap<>(nearline);
        samza.put("app.name", appName);
        samza.put("job.name", appName); // still read by parts of Samza 1.8
        samza.put("job.id", "1");
        samza.put("job.coordinator.factory", "org.apache.samza.standalone.PassthroughJobCoordinatorFactory");
        samza.put("task.name.grouper.factory", "org.apache.samza.container.grouper.task.SingleContainerGrouperFactory");
        samza.put("processor.id", "0");
        samza.put("job.jmx.enabled", "false");
        samza.put("job.default.system", system);
        samza.put("job.container.thread.pool.size", Integer.toString(threads));
        samza.put("task.checkpoint.factory", "org.apache.samza.checkpoint.kafka.KafkaCheckpointManagerFactory");
        samza.put("task.checkpoint.system", system);
        samza.put("task.checkpoint.replication.factor", "1");
        samza.put("task.commit.ms", Long.toString(commitInterval.toMillis()));
        samza.put("task.shutdown.ms", "10000");
        // KafkaSystemDescriptor 1.8 sets no consumer bootstrap servers: give them as consumer configs
        samza.put("systems." + system + ".consumer.bootstrap.servers", bootstrapServers);
        samza.put("systems." + system + ".producer.bootstrap.servers", bootstrapServers);
        samza.put("systems." + system + ".default.stream.replication.factor", "1");
        return samza;
    }
}
