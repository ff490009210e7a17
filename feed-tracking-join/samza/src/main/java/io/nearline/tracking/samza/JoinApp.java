package io.nearline.tracking.samza;

import io.nearline.common.config.Config;
import io.nearline.engine.samza.SamzaLocalRun;
import io.nearline.tracking.join.JoinSettings;
import org.apache.samza.application.TaskApplication;
import org.apache.samza.application.descriptors.TaskApplicationDescriptor;
import org.apache.samza.operators.KV;
import org.apache.samza.serializers.ByteSerde;
import org.apache.samza.serializers.KVSerde;
import org.apache.samza.system.SystemStreamMetadata;
import org.apache.samza.system.kafka.descriptors.KafkaInputDescriptor;
import org.apache.samza.system.kafka.descriptors.KafkaSystemDescriptor;
import org.apache.samza.task.StreamTaskFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The feed-tracking-join app on Samza (low-level API): the index and broker topics in, one
 * {@link JoinTask} per partition number (Samza groups partition p of both topics into one task, so
 * the inputs must be co-partitioned by requestId), the four outputs out, request state in a
 * changelogged RocksDB store. {@link #config} adds the Samza settings a run needs.
 */
public final class JoinApp implements TaskApplication {

    static final String SYSTEM = "kafka";
    static final String STORE = "join-state";

    private final JoinSettings settings;
    private final Map<String, Map<Integer, Long>> endOffsets;

    /**
     * @param endOffsets for a bounded run (a replay): where each input partition ends; empty to run
     *                   unbounded, as in production
     */
    public JoinApp(JoinSettings settings, Map<String, Map<Integer, Long>> endOffsets) {
        this.settings = settings;
        this.endOffsets = endOffsets;
    }

    @Override
    public void describe(TaskApplicationDescriptor app) {
        KafkaSystemDescriptor kafka = new KafkaSystemDescriptor(SYSTEM)
                .withProducerBootstrapServers(List.of(settings.bootstrapServers()))
                .withDefaultStreamConfigs(Map.of("replication.factor", "1"));
        app.withDefaultSystem(kafka);
        // stream ids may not contain dots; topic names may
        app.withInputStream(input(kafka, "index", settings.indexTopic()));
        app.withInputStream(input(kafka, "broker", settings.brokerTopic()));
        app.withOutputStream(kafka.getOutputDescriptor("joined", new ByteSerde()).withPhysicalName(settings.joinedTopic()));
        app.withOutputStream(kafka.getOutputDescriptor("orphans", new ByteSerde()).withPhysicalName(settings.orphansTopic()));
        app.withOutputStream(kafka.getOutputDescriptor("late", new ByteSerde()).withPhysicalName(settings.lateTopic()));
        app.withOutputStream(kafka.getOutputDescriptor("deadletters", new ByteSerde()).withPhysicalName(settings.deadLetterTopic()));
        app.withTaskFactory((StreamTaskFactory) () -> new JoinTask(endOffsets));
    }

    private static KafkaInputDescriptor<KV<byte[], byte[]>> input(KafkaSystemDescriptor kafka, String id, String topic) {
        return kafka.getInputDescriptor(id, KVSerde.of(new ByteSerde(), new ByteSerde()))
                .withPhysicalName(topic)
                .withOffsetDefault(SystemStreamMetadata.OffsetType.OLDEST);
    }

    /**
     * Samza settings for a run of this app on the local runner (passthrough coordinator, one container,
     * Kafka checkpoints), the RocksDB store and its changelog, plus every Nearline setting (tasks read
     * them back).
     */
    public static Map<String, String> config(Config config, Path stateDir) {
        JoinSettings s = JoinSettings.from(config);
        Map<String, String> samza = SamzaLocalRun.config(config.asMap(), SYSTEM, s.consumerGroup(), s.parallelism(),
                s.checkpointInterval(), s.bootstrapServers());
        samza.put("serializers.registry.string.class", "org.apache.samza.serializers.StringSerdeFactory");
        samza.put("serializers.registry.bytes.class", "org.apache.samza.serializers.ByteSerdeFactory");
        samza.put("stores." + STORE + ".factory", "org.apache.samza.storage.kv.RocksDbKeyValueStorageEngineFactory");
        samza.put("stores." + STORE + ".key.serde", "string");
        samza.put("stores." + STORE + ".msg.serde", "bytes");
        samza.put("stores." + STORE + ".changelog", SYSTEM + "." + s.consumerGroup() + "-join-state-changelog");
        samza.put("stores." + STORE + ".changelog.replication.factor", "1");
        samza.put("job.logged.store.base.dir", stateDir.toString());
        samza.put("job.non-logged.store.base.dir", stateDir.toString());
        return samza;
    }
}
