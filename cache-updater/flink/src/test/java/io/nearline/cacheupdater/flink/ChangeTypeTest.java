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
package io.nearline.cacheupdater.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nearline.cacheupdater.core.UpdateBatch;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * What the decode hands the write crosses a shuffle: Flink must move it with its POJO serializer (a
 * generic type would fall back to Kryo, slower and fragile across upgrades), and every field must
 * arrive, the record it was read as included (a refused write's dead letter carries it).
 */
class ChangeTypeTest {

    @Test
    void aChangeIsAPojoToFlinkAndCrossesAShuffleWhole() throws Exception {
        TypeInformation<Change> type = TypeInformation.of(Change.class);
        assertInstanceOf(PojoTypeInfo.class, type, "Flink sees " + type);
        TypeSerializer<Change> serializer = type.createSerializer(new SerializerConfigImpl());

        byte[] payload = "{\"name\":\"a\"}".getBytes(StandardCharsets.UTF_8);
        SourceRecord read = new SourceRecord("group", "cdc", 3, 42, null, "as read".getBytes(StandardCharsets.UTF_8));
        Change upsert = new Change(
                CacheKey.of("member:1"),
                new UpdateBatch.Pending(
                        "members",
                        1_700_000_000_000L,
                        CacheRecord.upsert(Version.of(7, 2, 1), 3, payload),
                        read,
                        false));
        Change tombstone = new Change(
                CacheKey.of("member:2"),
                new UpdateBatch.Pending("members", 5, CacheRecord.tombstone(Version.of(8, 1), 3), read, true));

        for (Change sent : new Change[] {upsert, tombstone}) {
            DataOutputSerializer out = new DataOutputSerializer(256);
            serializer.serialize(sent, out);
            Change got = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertEquals(sent.key(), got.key());
            UpdateBatch.Pending p = got.pending();
            assertEquals(sent.pending().table(), p.table());
            assertEquals(sent.pending().commitTimeMillis(), p.commitTimeMillis());
            assertEquals(sent.pending().refreshTtl(), p.refreshTtl());
            assertEquals(sent.pending().record().version(), p.record().version());
            assertEquals(sent.pending().record().tombstone(), p.record().tombstone());
            assertEquals(sent.pending().record().sourcePartition(), p.record().sourcePartition());
            assertArrayEquals(sent.pending().record().payload(), p.record().payload());
            assertEquals("cdc", p.source().topic());
            assertEquals(42, p.source().offset());
            assertNull(p.source().key());
            assertArrayEquals(read.value(), p.source().value());
        }
    }
}
