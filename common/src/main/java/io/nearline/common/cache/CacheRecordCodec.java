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

import io.nearline.common.version.Scn;
import io.nearline.common.version.Version;
import java.nio.ByteBuffer;

/**
 * Encodes a {@link CacheRecord} into the versioned binary envelope stored in every cache. The byte
 * layout is documented in {@code docs/cache-record-format.md}; all integers are big-endian.
 *
 * <pre>
 * format 1 (a version without a sequence)    format 2 (a version with one)
 * offset size field                          offset size field
 *  0      1   format          0x01            0      1   format          0x02
 *  1      1   flags (bit 0 = tombstone)       1      1   flags
 *  2      8   scn             int64, >= 0     2      8   scn
 *                                            10      8   seq             int64, >= 1
 * 10      4   schemaVersion   int32, >= 0    18      4   schemaVersion
 * 14      4   sourcePartition int32, >= 0    22      4   sourcePartition
 * 18      8   writeTimeMillis epoch millis   26      8   writeTimeMillis
 * 26      4   payloadLength   0 = tombstone  34      4   payloadLength
 * 30      n   payload                        38      n   payload
 * </pre>
 *
 * The writer picks format 1 whenever the sequence is 0, so records written before format 2 existed
 * and records of sources without a sequence stay byte for byte what they were.
 *
 * A reader that meets an unknown format byte or reserved flag refuses the record rather than guess:
 * a newer writer may have changed the meaning of the bytes.
 */
public final class CacheRecordCodec {

    public static final byte FORMAT_V1 = 0x01;
    public static final byte FORMAT_V2 = 0x02;
    /** Header bytes of format 1; format 2 has {@link #SEQ_BYTES} more. */
    public static final int HEADER_BYTES = 30;

    private static final int SEQ_BYTES = 8;
    private static final int FLAG_TOMBSTONE = 0x01;
    private static final int KNOWN_FLAGS = FLAG_TOMBSTONE;

    private CacheRecordCodec() {}

    public static byte[] encode(CacheRecord record) {
        byte[] payload = record.payload();
        Version version = record.version();
        boolean withSeq = version.seq() != 0;
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + (withSeq ? SEQ_BYTES : 0) + payload.length);
        out.put(withSeq ? FORMAT_V2 : FORMAT_V1);
        out.put((byte) (record.tombstone() ? FLAG_TOMBSTONE : 0));
        out.putLong(version.scn().value());
        if (withSeq) {
            out.putLong(version.seq());
        }
        out.putInt(version.schemaVersion());
        out.putInt(record.sourcePartition());
        out.putLong(record.writeTimeMillis());
        out.putInt(payload.length);
        out.put(payload);
        return out.array();
    }

    public static CacheRecord decode(byte[] bytes) {
        ByteBuffer in = header(bytes);
        int shift = seqBytes(bytes);
        int headerBytes = HEADER_BYTES + shift;
        boolean tombstone = (in.get(1) & FLAG_TOMBSTONE) != 0;
        Version version = readVersion(in, shift);
        int partition = in.getInt(14 + shift);
        long writeTime = in.getLong(18 + shift);
        int length = in.getInt(26 + shift);
        if (length < 0 || headerBytes + length != bytes.length) {
            throw new CorruptCacheRecordException("payload length " + length + " does not match the "
                    + (bytes.length - headerBytes) + " bytes after the header");
        }
        if (tombstone && length != 0) {
            throw new CorruptCacheRecordException("tombstone with a " + length + "-byte payload");
        }
        byte[] payload = new byte[length];
        System.arraycopy(bytes, headerBytes, payload, 0, length);
        try {
            return new CacheRecord(version, tombstone, partition, writeTime, payload);
        } catch (IllegalArgumentException e) {
            throw new CorruptCacheRecordException(e.getMessage());
        }
    }

    /** The version alone, without copying the payload: all the SCN-ordered write needs to compare. */
    public static Version decodeVersion(byte[] bytes) {
        return readVersion(header(bytes), seqBytes(bytes));
    }

    private static ByteBuffer header(byte[] bytes) {
        if (bytes == null || bytes.length < HEADER_BYTES) {
            throw new CorruptCacheRecordException("record of " + (bytes == null ? 0 : bytes.length)
                    + " bytes is shorter than the " + HEADER_BYTES + "-byte header");
        }
        if (bytes[0] != FORMAT_V1 && bytes[0] != FORMAT_V2) {
            throw new CorruptCacheRecordException(String.format(
                    "unknown cache record format 0x%02x (this reader knows 0x%02x and 0x%02x)",
                    bytes[0], FORMAT_V1, FORMAT_V2));
        }
        if (bytes[0] == FORMAT_V2 && bytes.length < HEADER_BYTES + SEQ_BYTES) {
            throw new CorruptCacheRecordException("format 2 record of " + bytes.length + " bytes is shorter than its "
                    + (HEADER_BYTES + SEQ_BYTES) + "-byte header");
        }
        int flags = bytes[1] & 0xff;
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw new CorruptCacheRecordException(String.format("reserved flag bits set: 0x%02x", flags));
        }
        return ByteBuffer.wrap(bytes);
    }

    /** How far format 2 moves the fields after the SCN: the sequence's bytes. */
    private static int seqBytes(byte[] bytes) {
        return bytes[0] == FORMAT_V2 ? SEQ_BYTES : 0;
    }

    private static Version readVersion(ByteBuffer in, int shift) {
        long scn = in.getLong(2);
        long seq = shift == 0 ? 0 : in.getLong(10);
        int schemaVersion = in.getInt(10 + shift);
        if (scn < 0 || seq < 0 || schemaVersion < 0 || (shift != 0 && seq == 0)) {
            throw new CorruptCacheRecordException(
                    "bad version " + scn + (shift == 0 ? "" : "." + seq) + "/v" + schemaVersion);
        }
        return new Version(Scn.of(scn), seq, schemaVersion);
    }
}
