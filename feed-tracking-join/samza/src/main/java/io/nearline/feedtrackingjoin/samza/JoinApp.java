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
package io.nearline.feedtrackingjoin.samza;

import io.nearline.common.config.Config;
import io.nearline.engines.samzakit.SamzaConfig;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import java.util.Map;
import org.apache.samza.application.TaskApplication;
import org.apache.samza.application.descriptors.TaskApplicationDescriptor;
import org.apache.samza.operators.KV;
import org.apache.samza.serializers.ByteSerde;
import org.apache.samza.serializers.KVSerde;
import org.apache.samza.system.SystemStreamMetadata;
import org.apache.samza.system.kafka.descriptors.KafkaInputDescriptor;
import org.apache.samza.system.kafka.descriptors.KafkaSystemDescriptor;
import org.apache.samza.task.StreamTaskFactory;

/**
 * The feed-tracking-join app on Samza (low-level API), named by {@code app.class}: the index and
 * broker topics in, one {@link JoinTask} per partition number (Samza groups partition p of both
 * topics into one task, so the inputs must be co-partitioned by requestId), the four outputs out.
 * Only the wiring is here: the request-state store ({@value #STORE}) and its changelog, the Kafka
 * system, checkpoints and containers come from the job's config (the package's
 * {@code config/tracking-join.properties}).
 */
public final class JoinApp implements TaskApplication {

    static final String SYSTEM = "kafka";
    static final String STORE = "join-state";

    private final Map<String, Map<Integer, Long>> endOffsets;

    /** The app as {@code app.class} names it: unbounded, as in production. */
    public JoinApp() {
        this(Map.of());
    }

    /**
     * A bounded run (a replay): each task stops reading its partitions at these offsets (topic to
     * partition to end offset), flushes everything and counts itself drained.
     */
    public JoinApp(Map<String, Map<Integer, Long>> endOffsets) {
        this.endOffsets = endOffsets;
    }

    @Override
    public void describe(TaskApplicationDescriptor app) {
        Config config = SamzaConfig.nearline(app.getConfig());
        JoinSettings.validateJob(config);
        SamzaConfig.requireNoObjectCache(config, STORE, "tracking-join.properties");
        JoinSettings settings = JoinSettings.from(config);
        KafkaSystemDescriptor kafka = new KafkaSystemDescriptor(SYSTEM);
        app.withDefaultSystem(kafka);
        // stream ids may not contain dots; topic names may
        app.withInputStream(input(kafka, "index", settings.indexTopic()));
        app.withInputStream(input(kafka, "broker", settings.brokerTopic()));
        app.withOutputStream(
                kafka.getOutputDescriptor("joined", new ByteSerde()).withPhysicalName(settings.joinedTopic()));
        app.withOutputStream(
                kafka.getOutputDescriptor("orphans", new ByteSerde()).withPhysicalName(settings.orphansTopic()));
        app.withOutputStream(kafka.getOutputDescriptor("late", new ByteSerde()).withPhysicalName(settings.lateTopic()));
        app.withOutputStream(
                kafka.getOutputDescriptor("deadletters", new ByteSerde()).withPhysicalName(settings.deadLetterTopic()));
        app.withTaskFactory((StreamTaskFactory) () -> new JoinTask(endOffsets));
    }

    /** From the oldest offset when the job has no checkpoint yet: nothing before it is skipped. */
    private static KafkaInputDescriptor<KV<byte[], byte[]>> input(
            KafkaSystemDescriptor kafka, String id, String topic) {
        return kafka.getInputDescriptor(id, KVSerde.of(new ByteSerde(), new ByteSerde()))
                .withPhysicalName(topic)
                .withOffsetDefault(SystemStreamMetadata.OffsetType.OLDEST);
    }
}
