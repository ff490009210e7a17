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
package io.nearline.common.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.ConfigDef;
import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.KafkaSecurity;
import io.nearline.common.config.ValueType;
import org.junit.jupiter.api.Test;

/**
 * The docs check on common's own keys (here rather than beside them: the test kit depends on the
 * config package, so a config test using it would close a package cycle).
 */
class ConfigDocsCheckTest {

    @Test
    void theKafkaSecurityKeysAreDocumented() {
        ConfigDocsCheck.assertInSync("kafka-security", KafkaSecurity.DEF);
    }

    /** The control: a key the section does not list fails the check, naming the regeneration. */
    @Test
    void aKeyTheDocsDoNotListFails() {
        ConfigDef more = ConfigDef.of(
                "Kafka client security",
                ConfigKey.of("kafka.security.undocumented-key", ValueType.STRING, "x", "a key no document lists"));
        String updating = System.clearProperty("nearline.updateDocs"); // never write this key into the docs
        try {
            AssertionError e =
                    assertThrows(AssertionError.class, () -> ConfigDocsCheck.assertInSync("kafka-security", more));
            assertTrue(e.getMessage().contains("-Dnearline.updateDocs=true"), e.getMessage());
        } finally {
            if (updating != null) {
                System.setProperty("nearline.updateDocs", updating);
            }
        }
    }
}
