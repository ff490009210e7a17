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
package io.nearline.cacheupdater.samza;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.common.store.StoreOpener;
import io.nearline.engines.samzakit.SamzaConfig;
import org.apache.samza.application.TaskApplication;
import org.apache.samza.application.descriptors.TaskApplicationDescriptor;
import org.apache.samza.operators.KV;
import org.apache.samza.serializers.ByteSerde;
import org.apache.samza.serializers.KVSerde;
import org.apache.samza.system.SystemStreamMetadata;
import org.apache.samza.system.kafka.descriptors.KafkaInputDescriptor;
import org.apache.samza.system.kafka.descriptors.KafkaSystemDescriptor;
import org.apache.samza.task.AsyncStreamTaskFactory;

/**
 * The cache-updater app on Samza (low-level API), named by {@code app.class}: the CDC topic in (and,
 * with {@code bootstrap.enabled}, the bootstrap topic), {@link CacheUpdaterTask} per partition, dead
 * letters out. Only the wiring is here; the Kafka system, checkpoints, containers and every other
 * Samza setting come from the job's config (the package's {@code config/cache-updater.properties}).
 */
public final class CacheUpdaterApp implements TaskApplication {

    static final String SYSTEM = "kafka";

    /** What the bootstrapper has counted of each snapshot, rolled back with the input positions after a crash. */
    static final String PROGRESS_STORE = "bootstrap-progress";

    private final StoreOpener cache;

    /** The app as Samza makes it from {@code app.class}: the store {@code cache.store} names. */
    public CacheUpdaterApp() {
        this(StoreOpener.CONFIGURED);
    }

    /** The app with its tasks opening the cache through {@code cache} (a local tool's stores). */
    public CacheUpdaterApp(StoreOpener cache) {
        this.cache = cache;
    }

    @Override
    public void describe(TaskApplicationDescriptor app) {
        Config config = SamzaConfig.nearline(app.getConfig());
        CacheUpdaterSettings.validateJob(config, BootstrapSettings.DEF);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        boolean withBootstrap = config.get(BootstrapSettings.ENABLED);
        SamzaConfig.requireSyncCommit(config);

        KafkaSystemDescriptor kafka = new KafkaSystemDescriptor(SYSTEM);
        app.withDefaultSystem(kafka);
        app.withInputStream(input(kafka, "cdc", settings.cdcTopic())); // stream ids may not contain dots; topics may
        if (withBootstrap) {
            SamzaConfig.requireNoObjectCache(config, PROGRESS_STORE, "cache-updater.properties");
            app.withInputStream(
                    input(kafka, "bootstrap", BootstrapSettings.from(config).topic()));
        }
        app.withOutputStream(
                kafka.getOutputDescriptor("deadletters", new ByteSerde()).withPhysicalName(settings.deadLetterTopic()));
        String bootstrapTopic = withBootstrap ? BootstrapSettings.from(config).topic() : null;
        StoreOpener opener = cache; // the factory captures the opener alone, not the app
        app.withTaskFactory((AsyncStreamTaskFactory) () -> new CacheUpdaterTask(bootstrapTopic, opener));
    }

    /** From the oldest offset when the job has no checkpoint yet: nothing before it is skipped. */
    private static KafkaInputDescriptor<KV<byte[], byte[]>> input(
            KafkaSystemDescriptor kafka, String id, String topic) {
        return kafka.getInputDescriptor(id, KVSerde.of(new ByteSerde(), new ByteSerde()))
                .withPhysicalName(topic)
                .withOffsetDefault(SystemStreamMetadata.OffsetType.OLDEST);
    }
}
