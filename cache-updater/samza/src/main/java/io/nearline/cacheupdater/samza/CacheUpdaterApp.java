package io.nearline.cacheupdater.samza;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.engine.samza.SamzaLocalRun;
import org.apache.samza.application.TaskApplication;
import org.apache.samza.application.descriptors.TaskApplicationDescriptor;
import org.apache.samza.serializers.ByteSerde;
import org.apache.samza.serializers.KVSerde;
import org.apache.samza.system.SystemStreamMetadata;
import org.apache.samza.system.kafka.descriptors.KafkaInputDescriptor;
import org.apache.samza.system.kafka.descriptors.KafkaSystemDescriptor;
import org.apache.samza.task.StreamTaskFactory;

import java.util.List;
import java.util.Map;

/**
 * The cache-updater app on Samza (low-level API): the CDC topic in, {@link CacheUpdaterTask} per
 * partition, dead letters out. {@link #localRunConfig} is the configuration for Samza's local
 * application runner: passthrough coordinator, one container, Kafka checkpoints.
 */
public final class CacheUpdaterApp implements TaskApplication {

    static final String SYSTEM = "kafka";

    private final CacheUpdaterSettings settings;
    private final String bootstrapTopic;

    public CacheUpdaterApp(CacheUpdaterSettings settings) {
        this(settings, null);
    }

    /**
     * With {@code bootstrapTopic}, the bootstrapper runs in the same app: its rows go through the same
     * per-message SCN-ordered write, its markers to the completeness tracker.
     */
    public CacheUpdaterApp(CacheUpdaterSettings settings, String bootstrapTopic) {
        this.settings = settings;
        this.bootstrapTopic = bootstrapTopic;
    }

    @Override
    public void describe(TaskApplicationDescriptor app) {
        KafkaSystemDescriptor kafka = new KafkaSystemDescriptor(SYSTEM)
                .withProducerBootstrapServers(List.of(settings.bootstrapServers()))
                .withDefaultStreamConfigs(Map.of("replication.factor", "1"));
        KafkaInputDescriptor<org.apache.samza.operators.KV<byte[], byte[]>> cdc = kafka
                .getInputDescriptor("cdc", KVSerde.of(new ByteSerde(), new ByteSerde()))
                .withPhysicalName(settings.cdcTopic()) // stream ids may not contain dots; topic names may
                .withOffsetDefault(SystemStreamMetadata.OffsetType.OLDEST);
        app.withDefaultSystem(kafka);
        app.withInputStream(cdc);
        if (bootstrapTopic != null) {
            app.withInputStream(kafka.getInputDescriptor("bootstrap", KVSerde.of(new ByteSerde(), new ByteSerde()))
                    .withPhysicalName(bootstrapTopic).withOffsetDefault(SystemStreamMetadata.OffsetType.OLDEST));
        }
        app.withOutputStream(kafka.getOutputDescriptor("deadletters", new ByteSerde()).withPhysicalName(settings.deadLetterTopic()));
        String bootstrap = bootstrapTopic;
        app.withTaskFactory((StreamTaskFactory) () -> new CacheUpdaterTask(bootstrap));
    }

    /** Samza settings for a local run of this app, plus every Nearline setting (tasks read them back). */
    public static Map<String, String> localRunConfig(Config config) {
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        Map<String, String> samza = SamzaLocalRun.config(config.asMap(), SYSTEM, settings.consumerGroup(),
                settings.parallelism(), settings.checkpointInterval(), settings.bootstrapServers());
        samza.put("systems." + SYSTEM + ".producer.max.request.size", Integer.toString(16 * 1024 * 1024));
        samza.put("systems." + SYSTEM + ".consumer.max.partition.fetch.bytes", Integer.toString(16 * 1024 * 1024));
        return samza;
    }
}
