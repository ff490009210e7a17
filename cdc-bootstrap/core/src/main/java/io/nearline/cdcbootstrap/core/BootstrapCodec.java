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
package io.nearline.cdcbootstrap.core;

import io.nearline.bootstrap.avro.BootstrapKind;
import io.nearline.bootstrap.avro.BootstrapRecord;
import io.nearline.common.schema.TrustedAvroClasses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/** Bootstrap-topic records as bytes and back. */
public final class BootstrapCodec {

    static {
        TrustedAvroClasses.ensure(BootstrapRecord.class, BootstrapKind.class);
    }

    private static final ThreadLocal<SpecificDatumReader<BootstrapRecord>> READER =
            ThreadLocal.withInitial(() -> new SpecificDatumReader<>(BootstrapRecord.class));
    private static final ThreadLocal<SpecificDatumWriter<BootstrapRecord>> WRITER =
            ThreadLocal.withInitial(() -> new SpecificDatumWriter<>(BootstrapRecord.class));

    private BootstrapCodec() {}

    public static byte[] encode(BootstrapRecord record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            WRITER.get().write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A ROW's change event bytes (Avro ChangeEvent); null when the record carries none. */
    public static byte[] rowBytes(BootstrapRecord r) {
        if (r.getRow() == null) {
            return null;
        }
        ByteBuffer b = r.getRow().duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** The record, or null when the bytes are not one (the caller dead-letters them). */
    public static BootstrapRecord decodeOrNull(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
            BootstrapRecord record = READER.get().read(null, decoder);
            return decoder.isEnd() ? record : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
