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
package io.nearline.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChangeEventValidatorTest {

    @TempDir
    Path registry;

    private static ChangeEvent upsert(int schemaVersion, byte[] payload) {
        return ChangeEvent.newBuilder()
                .setTable("profile")
                .setKey("k")
                .setPartition(0)
                .setScn(1)
                .setOp(Op.UPSERT)
                .setSchemaVersion(schemaVersion)
                .setPayload(ByteBuffer.wrap(payload))
                .setCommitTimeMillis(0)
                .build();
    }

    @Test
    void withARegistryTheVersionMustBeKnownAndThePayloadValidUnderIt() throws Exception {
        Files.createDirectories(registry.resolve("profile"));
        Files.writeString(
                registry.resolve("profile/v1.avsc"),
                "{\"type\":\"record\",\"name\":\"P\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}");
        ChangeEventValidator checked = ChangeEventValidator.of(1024, registry.toString());
        byte[] abc = {6, 'a', 'b', 'c'};
        assertNull(checked.check(upsert(1, abc)));
        assertEquals(
                Rejection.Reason.UNKNOWN_SCHEMA_VERSION,
                checked.check(upsert(2, abc)).reason());
        assertEquals(
                Rejection.Reason.UNKNOWN_SCHEMA_VERSION,
                checked.check(upsert(0, abc)).reason());
        assertEquals(
                Rejection.Reason.INVALID_PAYLOAD,
                checked.check(upsert(1, new byte[] {6, 'a'})).reason());
        // a version registered after the validator started is found (a canary writer registered it)
        Files.writeString(
                registry.resolve("profile/v2.avsc"),
                "{\"type\":\"record\",\"name\":\"P\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
                        + "{\"name\":\"tier\",\"type\":\"string\",\"default\":\"free\"}]}");
        assertNull(checked.check(upsert(2, new byte[] {6, 'a', 'b', 'c', 2, 'x'})));
    }

    @Test
    void withoutARegistryPayloadsAreNotLookedAt() {
        assertNull(ChangeEventValidator.of(1024, "").check(upsert(9, new byte[] {6, 'a'})));
    }
}
