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
package io.nearline.cacheupdater.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.events.ChangeDecoder;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.events.ChangeEventValidator;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.common.events.DebeziumKeys;
import io.nearline.common.events.Rejection;
import io.nearline.common.metrics.InMemoryMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The intake every runtime runs before the write: what it passes, what it names, what it counts. */
class ChangeIntakeTest {

    private final InMemoryMetrics metrics = new InMemoryMetrics();
    private final List<Rejection> rejected = new ArrayList<>();
    private final ChangeIntake intake = new ChangeIntake(ChangeDecoder.AVRO, ChangeEventValidator.of(64, ""), metrics);

    private static byte[] avro(String key, String payload) {
        return ChangeEventCodec.encode(ChangeEvent.newBuilder()
                .setTable("t")
                .setKey(key)
                .setPartition(0)
                .setScn(7)
                .setOp(Op.UPSERT)
                .setSchemaVersion(1)
                .setPayload(ByteBuffer.wrap(payload.getBytes(StandardCharsets.UTF_8)))
                .setCommitTimeMillis(0)
                .build());
    }

    @Test
    void aValidRecordPassesAndIsCountedReceived() {
        ChangeEvent event = intake.take(null, avro("member:1", "{}"), rejected::add);
        assertNotNull(event);
        assertEquals("member:1", event.getKey());
        assertEquals(List.of(), rejected);
        assertEquals(1, metrics.count("events.received"));
        assertEquals(0, metrics.count("events.invalid"));
    }

    @Test
    void anUndecodableRecordIsNamedAndCountedInvalid() {
        assertNull(intake.take(null, "not avro".getBytes(StandardCharsets.UTF_8), rejected::add));
        assertEquals(1, rejected.size());
        assertEquals(Rejection.Reason.UNDECODABLE, rejected.get(0).reason());
        assertEquals(1, metrics.count("events.received"));
        assertEquals(1, metrics.count("events.invalid"));
    }

    @Test
    void aDecodedRecordTheValidatorRefusesIsNamedToo() {
        assertNull(intake.take(null, avro("member:2", "x".repeat(65)), rejected::add));
        assertEquals(1, rejected.size());
        assertEquals(Rejection.Reason.OVERSIZED_PAYLOAD, rejected.get(0).reason());
        assertEquals(1, metrics.count("events.invalid"));
    }

    @Test
    void aRecordTheRuntimeRefusesIsCountedLikeTheIntakesOwn() {
        intake.refuse(Rejection.of(Rejection.Reason.UNDECODABLE, "not raw bytes"), rejected::add);
        assertEquals(1, rejected.size());
        assertEquals(1, metrics.count("events.received"));
        assertEquals(1, metrics.count("events.invalid"));
    }

    /** A record refused before it decoded fully is counted against the table it names, where it names one. */
    @Test
    void aRejectionIsCountedAgainstTheTableTheRecordNames() {
        ChangeIntake debezium = new ChangeIntake(
                new DebeziumDecoder(
                        new DebeziumKeys("", List.of(), Map.of("public.orders", DebeziumKeys.Table.DEFAULT)),
                        DebeziumDecoder.AUTO),
                ChangeEventValidator.of(1024, ""),
                metrics);
        String audit = "{\"after\":{\"id\":1},\"op\":\"c\",\"source\":{\"connector\":\"postgresql\","
                + "\"schema\":\"public\",\"table\":\"audit\",\"lsn\":5}}";
        assertNull(debezium.take(null, audit.getBytes(StandardCharsets.UTF_8), rejected::add));
        assertEquals(Rejection.Reason.UNKNOWN_TABLE, rejected.get(0).reason());
        assertEquals(1, metrics.count("events.rejected{table=public.audit,reason=UNKNOWN_TABLE}"));
        assertNull(debezium.take(null, "{not json".getBytes(StandardCharsets.UTF_8), rejected::add));
        assertEquals(1, metrics.count("events.rejected{table=,reason=UNDECODABLE}"), "no table to name");
    }
}
