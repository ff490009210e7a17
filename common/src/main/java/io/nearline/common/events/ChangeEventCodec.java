package io.nearline.common.events;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.schema.TrustedAvroClasses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * The wire form of change events on the CDC topic: Avro binary of {@code ChangeEvent.avsc}, no
 * framing. The Kafka record key is the cache key in UTF-8, so one key's changes share a partition.
 * Thread-safe.
 */
public final class ChangeEventCodec {

    static {
        TrustedAvroClasses.ensure();
    }

    private static final ThreadLocal<SpecificDatumWriter<ChangeEvent>> WRITER =
            ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(ChangeEvent.class));
    private static final ThreadLocal<SpecificDatumReader<ChangeEvent>> READER =
            ThreadLocal.withInitial(() -> new SpecificDatumReader<>(ChangeEvent.class));
    // decoding is on every job's hot path (Flink decodes each event twice): reuse the decoder per thread
    private static final ThreadLocal<BinaryDecoder> DECODER = new ThreadLocal<>();

    private ChangeEventCodec() {}

    public static byte[] encode(ChangeEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(
                64 + (event.getPayload() == null ? 0 : event.getPayload().remaining()));
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            WRITER.get().write(event, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Decodes the bytes of one record; anything that is not exactly one ChangeEvent is UNDECODABLE. */
    public static Decoded decode(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return Decoded.rejected(Rejection.Reason.UNDECODABLE, "empty record value");
        }
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, DECODER.get());
            DECODER.set(decoder);
            ChangeEvent event = READER.get().read(null, decoder);
            if (!decoder.isEnd()) {
                return Decoded.rejected(Rejection.Reason.UNDECODABLE, "trailing bytes after the change event");
            }
            return Decoded.ok(event);
        } catch (IOException | RuntimeException e) {
            return Decoded.rejected(
                    Rejection.Reason.UNDECODABLE,
                    "not an Avro ChangeEvent: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }
}
