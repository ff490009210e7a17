package io.nearline.common.cache;

import io.nearline.common.version.Scn;
import io.nearline.common.version.Version;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Encodes a {@link CacheRecord} into the versioned binary envelope stored in every cache. The byte
 * layout is documented in {@code docs/cache-record-format.md}; all integers are big-endian.
 *
 * <pre>
 * offset size field
 *  0      1   format          0x01
 *  1      1   flags           bit 0 = tombstone, bits 1-7 reserved (0)
 *  2      8   scn             int64, >= 0
 * 10      4   schemaVersion   int32, >= 0
 * 14      4   sourcePartition int32, >= 0
 * 18      8   writeTimeMillis int64, epoch milliseconds
 * 26      4   payloadLength   int32, 0 for a tombstone
 * 30      n   payload         the source of truth's bytes, untouched
 * </pre>
 *
 * A reader that meets an unknown format byte or reserved flag refuses the record rather than guess:
 * a newer writer may have changed the meaning of the bytes.
 */
public final class CacheRecordCodec {

    public static final byte FORMAT_V1 = 0x01;
    public static final int HEADER_BYTES = 30;

    private static final int FLAG_TOMBSTONE = 0x01;
    private static final int KNOWN_FLAGS = FLAG_TOMBSTONE;

    private CacheRecordCodec() {}

    public static byte[] encode(CacheRecord record) {
        byte[] payload = record.payload();
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + payload.length);
        out.put(FORMAT_V1);
        out.put((byte) (record.tombstone() ? FLAG_TOMBSTONE : 0));
        out.putLong(record.version().scn().value());
        out.putInt(record.version().schemaVersion());
        out.putInt(record.sourcePartition());
        out.putLong(record.writeTimeMillis());
        out.putInt(payload.length);
        out.put(payload);
        return out.array();
    }

    public static CacheRecord decode(byte[] bytes) {
        ByteBuffer in = header(bytes);
        boolean tombstone = (in.get(1) & FLAG_TOMBSTONE) != 0;
        Version version = readVersion(in);
        int partition = in.getInt(14);
        long writeTime = in.getLong(18);
        int length = in.getInt(26);
        if (length < 0 || HEADER_BYTES + length != bytes.length) {
            throw new CorruptCacheRecordException("payload length " + length + " does not match the "
                    + (bytes.length - HEADER_BYTES) + " bytes after the header");
        }
        if (tombstone && length != 0) {
            throw new CorruptCacheRecordException("tombstone with a " + length + "-byte payload");
        }
        byte[] payload = new byte[length];
        System.arraycopy(bytes, HEADER_BYTES, payload, 0, length);
        try {
            return new CacheRecord(version, tombstone, partition, writeTime, payload);
        } catch (IllegalArgumentException e) {
            throw new CorruptCacheRecordException(e.getMessage());
        }
    }

    /** The version alone, without copying the payload: all the SCN-ordered write needs to compare. */
    public static Version decodeVersion(byte[] bytes) {
        return readVersion(header(bytes));
    }

    private static ByteBuffer header(byte[] bytes) {
        if (bytes == null || bytes.length < HEADER_BYTES) {
            throw new CorruptCacheRecordException("record of " + (bytes == null ? 0 : bytes.length)
                    + " bytes is shorter than the " + HEADER_BYTES + "-byte header");
        }
        if (bytes[0] != FORMAT_V1) {
            throw new CorruptCacheRecordException(String.format(
                    "unknown cache record format 0x%02x (this reader knows 0x%02x)", bytes[0], FORMAT_V1));
        }
        int flags = bytes[1] & 0xff;
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw new CorruptCacheRecordException(String.format("reserved flag bits set: 0x%02x", flags));
        }
        return ByteBuffer.wrap(bytes);
    }

    private static Version readVersion(ByteBuffer in) {
        try {
            long scn = in.getLong(2);
            int schemaVersion = in.getInt(10);
            if (scn < 0 || schemaVersion < 0) {
                throw new CorruptCacheRecordException("negative version " + scn + "/v" + schemaVersion);
            }
            return new Version(Scn.of(scn), schemaVersion);
        } catch (BufferUnderflowException e) {
            throw new CorruptCacheRecordException("truncated header");
        }
    }
}
