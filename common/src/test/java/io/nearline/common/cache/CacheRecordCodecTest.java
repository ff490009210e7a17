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
package io.nearline.common.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.version.Version;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class CacheRecordCodecTest {

    @Property
    void upsertsRoundTrip(
            @ForAll @LongRange(max = Long.MAX_VALUE) long scn,
            @ForAll @LongRange(max = Long.MAX_VALUE) long seq,
            @ForAll @IntRange(max = 1000) int schema,
            @ForAll @IntRange(max = 4096) int partition,
            @ForAll long writeTime,
            @ForAll @Size(max = 300) byte[] payload) {
        CacheRecord record = new CacheRecord(Version.of(scn, seq, schema), false, partition, writeTime, payload);
        byte[] bytes = CacheRecordCodec.encode(record);
        assertEquals(record, CacheRecordCodec.decode(bytes));
        assertEquals(record.version(), CacheRecordCodec.decodeVersion(bytes));
        assertEquals(seq == 0 ? 1 : 2, bytes[0], "format 1 unless the version has a sequence");
        assertEquals(CacheRecordCodec.HEADER_BYTES + (seq == 0 ? 0 : 8) + payload.length, bytes.length);
    }

    @Test
    void tombstoneRoundTripsWithoutPayload() {
        CacheRecord tombstone = CacheRecord.tombstone(Version.of(42, 3), 7).withWriteTime(99);
        CacheRecord back = CacheRecordCodec.decode(CacheRecordCodec.encode(tombstone));
        assertTrue(back.tombstone());
        assertEquals(0, back.payload().length);
        assertEquals(tombstone, back);
    }

    /** Pins the documented byte layout (docs/cache-record-format.md): changing it needs a new format byte. */
    @Test
    void layoutMatchesTheDocumentedBytes() {
        CacheRecord record = new CacheRecord(
                Version.of(0x0102030405060708L, 9), false, 5, 0x1122334455667788L, new byte[] {(byte) 0xCA, (byte) 0xFE
                });
        String hex = HexFormat.of().formatHex(CacheRecordCodec.encode(record));
        assertEquals(
                "01" + "00" + "0102030405060708" + "00000009" + "00000005" + "1122334455667788" + "00000002" + "cafe",
                hex);
        String tomb = HexFormat.of().formatHex(CacheRecordCodec.encode(CacheRecord.tombstone(Version.of(1, 0), 0)));
        assertEquals("0101" + "0000000000000001" + "00000000" + "00000000" + "0000000000000000" + "00000000", tomb);
    }

    /** Format 2 (docs/cache-record-format.md): the sequence follows the SCN, the rest moves 8 bytes on. */
    @Test
    void formatTwoLayoutMatchesTheDocumentedBytes() {
        CacheRecord record = new CacheRecord(
                Version.of(0x0102030405060708L, 0x1112131415161718L, 9), false, 5, 0x1122334455667788L, new byte[] {
                    (byte) 0xCA, (byte) 0xFE
                });
        String hex = HexFormat.of().formatHex(CacheRecordCodec.encode(record));
        assertEquals(
                "02" + "00" + "0102030405060708" + "1112131415161718" + "00000009" + "00000005" + "1122334455667788"
                        + "00000002" + "cafe",
                hex);
    }

    @Test
    void formatTwoWithoutASequenceIsRefused() {
        byte[] bytes = CacheRecordCodec.encode(CacheRecord.tombstone(Version.of(5, 7, 1), 0));
        Arrays.fill(bytes, 10, 18, (byte) 0);
        assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decode(bytes));
        assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decodeVersion(Arrays.copyOf(bytes, 34)));
    }

    @Test
    void unknownFormatIsRefused() {
        byte[] bytes = CacheRecordCodec.encode(CacheRecord.upsert(Version.of(1, 1), 0, new byte[] {1}));
        bytes[0] = 0x03;
        CorruptCacheRecordException e =
                assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decode(bytes));
        assertTrue(e.getMessage().contains("unknown cache record format 0x03"), e.getMessage());
        assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decodeVersion(bytes));
    }

    @Test
    void reservedFlagsAreRefused() {
        byte[] bytes = CacheRecordCodec.encode(CacheRecord.upsert(Version.of(1, 1), 0, new byte[] {1}));
        bytes[1] = 0x04;
        assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decode(bytes));
    }

    @Test
    void truncatedAndPaddedRecordsAreRefused() {
        byte[] bytes = CacheRecordCodec.encode(CacheRecord.upsert(Version.of(1, 1), 0, new byte[] {1, 2, 3}));
        assertThrows(
                CorruptCacheRecordException.class,
                () -> CacheRecordCodec.decode(Arrays.copyOf(bytes, bytes.length - 1)));
        assertThrows(
                CorruptCacheRecordException.class,
                () -> CacheRecordCodec.decode(Arrays.copyOf(bytes, bytes.length + 1)));
        assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decode(Arrays.copyOf(bytes, 10)));
        assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decode(new byte[0]));
    }

    @Test
    void negativeStoredScnIsRefused() {
        byte[] bytes = CacheRecordCodec.encode(CacheRecord.upsert(Version.of(1, 1), 0, new byte[0]));
        bytes[2] = (byte) 0x80;
        assertThrows(CorruptCacheRecordException.class, () -> CacheRecordCodec.decodeVersion(bytes));
    }

    @Test
    void largePayloadRoundTrips() {
        byte[] payload = new byte[100 * 1024];
        Arrays.fill(payload, (byte) 7);
        CacheRecord back =
                CacheRecordCodec.decode(CacheRecordCodec.encode(CacheRecord.upsert(Version.of(5, 1), 1, payload)));
        assertArrayEquals(payload, back.payload());
    }
}
