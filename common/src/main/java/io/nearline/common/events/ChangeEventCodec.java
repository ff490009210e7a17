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

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.schema.TrustedAvroClasses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.Schema;
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
 *
 * <p>An event whose {@code seq} is 0 is written without that last field, byte for byte as before the
 * field existed, so producers and consumers of the native form need not upgrade together; an event
 * with a sequence (a Debezium change inside a job) carries it. The reader tells the two apart by
 * length: it reads the short form and, when bytes are left over, the long one.
 */
public final class ChangeEventCodec {

    static {
        TrustedAvroClasses.ensure();
    }

    /** ChangeEvent without its last field, {@code seq}: the form of every event whose seq is 0. */
    private static final Schema WITHOUT_SEQ = withoutLastField(ChangeEvent.getClassSchema());

    private static final ThreadLocal<SpecificDatumWriter<ChangeEvent>> WRITER =
            ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(ChangeEvent.class));
    private static final ThreadLocal<SpecificDatumWriter<ChangeEvent>> WRITER_WITHOUT_SEQ =
            ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(WITHOUT_SEQ));
    private static final ThreadLocal<SpecificDatumReader<ChangeEvent>> READER =
            ThreadLocal.withInitial(() -> new SpecificDatumReader<>(ChangeEvent.class));
    private static final ThreadLocal<SpecificDatumReader<ChangeEvent>> READER_WITHOUT_SEQ =
            ThreadLocal.withInitial(() -> new SpecificDatumReader<>(WITHOUT_SEQ, ChangeEvent.getClassSchema()));
    // decoding is on every job's hot path (Flink decodes each event twice): reuse the decoder per thread
    private static final ThreadLocal<BinaryDecoder> DECODER = new ThreadLocal<>();

    private ChangeEventCodec() {}

    public static byte[] encode(ChangeEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(
                64 + (event.getPayload() == null ? 0 : event.getPayload().remaining()));
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            (event.getSeq() == 0 ? WRITER_WITHOUT_SEQ : WRITER).get().write(event, encoder);
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
            ChangeEvent event = read(READER_WITHOUT_SEQ.get(), bytes);
            if (event == null) {
                event = read(READER.get(), bytes);
            }
            if (event == null) {
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

    /** The event, or null when bytes are left after it. */
    private static ChangeEvent read(SpecificDatumReader<ChangeEvent> reader, byte[] bytes) throws IOException {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, DECODER.get());
        DECODER.set(decoder);
        ChangeEvent event = reader.read(null, decoder);
        return decoder.isEnd() ? event : null;
    }

    private static Schema withoutLastField(Schema full) {
        List<Schema.Field> fields = full.getFields().stream()
                .limit(full.getFields().size() - 1)
                .map(f -> new Schema.Field(f, f.schema()))
                .toList();
        return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields);
    }
}
