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
package io.nearline.feedtrackingjoin.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** The shipped descriptor stays valid and builds the job graph; a misspelt key fails before start. */
class JobDescriptorTest {

    @Test
    void shippedDescriptorBuildsTheJob() {
        Config config = Config.fromArgs(new String[] {"--config", "conf/tracking-join.yaml"});
        JoinSettings.validateJob(config);
        JoinSettings settings = JoinSettings.from(config);
        assertEquals(Duration.ofSeconds(30), settings.window());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(5000); // the shipped Flink configuration's interval
        TrackingJoinJob.define(env, TrackingJoinIo.kafka(config, false), settings);
        assertTrue(env.getStreamGraph().getStreamNodes().size() >= 8, "sources, route, join and four sinks");
    }

    @Test
    void exactlyOnceOutputsNeedCheckpointsAndATimeoutAboveTheirInterval() {
        JoinSettings exactlyOnce =
                JoinSettings.from(Config.fromArgs(new String[] {"--config", "conf/tracking-join.yaml"}));
        assertEquals(JoinSettings.OutputDelivery.EXACTLY_ONCE, exactlyOnce.outputDelivery());
        ConfigException off =
                assertThrows(ConfigException.class, () -> TrackingJoinJob.checkTransactions(exactlyOnce, -1));
        assertTrue(off.getMessage().contains("checkpointing is off"), off.getMessage());
        ConfigException tooShort = assertThrows(
                ConfigException.class,
                () -> TrackingJoinJob.checkTransactions(
                        exactlyOnce, Duration.ofMinutes(6).toMillis()));
        assertTrue(tooShort.getMessage().contains("join.output.transaction-timeout"), tooShort.getMessage());
        TrackingJoinJob.checkTransactions(exactlyOnce, 5000);
        JoinSettings atLeastOnce = JoinSettings.from(Config.fromArgs(
                new String[] {"--config", "conf/tracking-join.yaml", "--set", "join.output.delivery=at-least-once"}));
        TrackingJoinJob.checkTransactions(atLeastOnce, -1); // nothing to commit: no checkpoint needed
    }

    /** Eager emission flushes network buffers within 5 ms, unless the Flink configuration says otherwise. */
    @Test
    void eagerEmissionShortensTheBufferTimeoutUnlessItIsConfigured() {
        assertEquals(5, bufferTimeout(new Configuration(), "eager"));
        Configuration configured = new Configuration();
        configured.set(ExecutionOptions.BUFFER_TIMEOUT, Duration.ofMillis(40));
        assertEquals(40, bufferTimeout(configured, "eager"));
        // control: waiting for the watermark leaves Flink's default
        assertEquals(
                ExecutionOptions.BUFFER_TIMEOUT.defaultValue().toMillis(),
                bufferTimeout(new Configuration(), "watermark"));
    }

    private static long bufferTimeout(Configuration flink, String emitComplete) {
        Config config = Config.fromArgs(
                new String[] {"--config", "conf/tracking-join.yaml", "--set", "join.emit-complete=" + emitComplete});
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.enableCheckpointing(5000);
        TrackingJoinJob.define(env, TrackingJoinIo.kafka(config, false), JoinSettings.from(config));
        return env.getBufferTimeout();
    }

    @Test
    void aMisspeltKeyFailsByName() {
        Config config = Config.fromArgs(new String[] {"--config", "conf/tracking-join.yaml", "--set", "join.windw=5s"});
        ConfigException e = assertThrows(ConfigException.class, () -> JoinSettings.validateJob(config));
        assertTrue(e.getMessage().contains("join.window"), e.getMessage());
    }
}
