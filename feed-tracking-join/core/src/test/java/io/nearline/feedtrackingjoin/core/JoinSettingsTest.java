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
package io.nearline.feedtrackingjoin.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.testkit.ConfigDocsCheck;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JoinSettingsTest {

    @Test
    void defaultsNeedOnlyTheBrokers() {
        JoinSettings s = JoinSettings.from(Config.of(Map.of("kafka.bootstrap-servers", "127.0.0.1:9092")));
        assertEquals("tracking.index", s.indexTopic());
        assertEquals(Duration.ofSeconds(10), s.window());
        assertEquals(Duration.ofSeconds(2), s.allowedLateness());
    }

    @Test
    void badSettingsFailByName() {
        ConfigException loop = assertThrows(
                ConfigException.class,
                () -> JoinSettings.from(
                        Config.of(Map.of("kafka.bootstrap-servers", "b:1", "tracking.late-topic", "tracking.index"))));
        assertTrue(loop.getMessage().contains("six different topics"), loop.getMessage());
        ConfigException window = assertThrows(
                ConfigException.class,
                () -> JoinSettings.from(Config.of(Map.of("kafka.bootstrap-servers", "b:1", "join.window", "0s"))));
        assertTrue(window.getMessage().contains("join.window"), window.getMessage());
        ConfigException typo = assertThrows(
                ConfigException.class,
                () -> JoinSettings.validateJob(
                        Config.of(Map.of("kafka.bootstrap-servers", "b:1", "join.alowed-lateness", "1s"))));
        assertTrue(typo.getMessage().contains("join.allowed-lateness"), typo.getMessage());
        ConfigException stall = assertThrows(
                ConfigException.class,
                () -> JoinSettings.from(Config.of(Map.of(
                        "kafka.bootstrap-servers", "b:1", "join.idle-timeout", "2m", "join.stall-timeout", "1m"))));
        assertTrue(stall.getMessage().contains("join.stall-timeout"), stall.getMessage());
    }

    @Test
    void docsListEveryKey() {
        ConfigDocsCheck.assertInSync("feed-tracking-join", JoinSettings.DEF);
    }
}
