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
package io.nearline.common.deadletter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.common.avro.DeadLetter;
import io.nearline.common.schema.TrustedAvroClasses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Dead letters: the rejected input, byte for byte, with where it came from and why. On the
 * dead-letter topic they are Avro ({@code DeadLetter.avsc}); tools print them as JSON lines
 * {@code {"reason","detail","job","source":{"topic","partition","offset"},"key","value"}}, where key and
 * value are text when they are UTF-8 and {@code {"base64": ...}} otherwise.
 */
public final class DeadLetters {

    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        TrustedAvroClasses.ensure();
    }

    private DeadLetters() {}

    /** How much of a record too large for its topic a dead letter keeps: the dead letter must fit a topic too. */
    public static final int KEPT_BYTES_OF_TOO_LARGE = 64 * 1024;

    /** The first {@link #KEPT_BYTES_OF_TOO_LARGE} bytes of {@code value} (all of it when shorter). */
    public static byte[] head(byte[] value) {
        return value == null || value.length <= KEPT_BYTES_OF_TOO_LARGE
                ? value
                : Arrays.copyOf(value, KEPT_BYTES_OF_TOO_LARGE);
    }

    /** The dead letter of {@code source}, rejected for {@code rejection} at {@code nowMillis}. */
    public static DeadLetter of(SourceRecord source, RejectionReason rejection, long nowMillis) {
        return DeadLetter.newBuilder()
                .setJob(source.job())
                .setSourceTopic(source.topic())
                .setSourcePartition(source.partition())
                .setSourceOffset(source.offset())
                .setReason(rejection.code())
                .setDetail(rejection.detail())
                .setOriginalKey(source.key() == null ? null : ByteBuffer.wrap(source.key()))
                .setOriginalValue(source.value() == null ? null : ByteBuffer.wrap(source.value()))
                .setRejectedAtMillis(nowMillis)
                .build();
    }

    public static byte[] encode(DeadLetter letter) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            new SpecificDatumWriter<>(DeadLetter.class).write(letter, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static DeadLetter decode(byte[] bytes) {
        try {
            return new SpecificDatumReader<>(DeadLetter.class)
                    .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String toJson(DeadLetter letter) {
        ObjectNode node = JSON.createObjectNode();
        node.put("reason", letter.getReason());
        node.put("detail", letter.getDetail());
        node.put("job", letter.getJob());
        ObjectNode source = node.putObject("source");
        source.put("topic", letter.getSourceTopic());
        source.put("partition", letter.getSourcePartition());
        source.put("offset", letter.getSourceOffset());
        putBytes(node, "key", letter.getOriginalKey());
        putBytes(node, "value", letter.getOriginalValue());
        return node.toString();
    }

    private static void putBytes(ObjectNode node, String field, ByteBuffer buffer) {
        if (buffer == null) {
            return;
        }
        ByteBuffer b = buffer.duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        try {
            node.put(
                    field,
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .decode(ByteBuffer.wrap(bytes))
                            .toString());
        } catch (CharacterCodingException e) {
            node.putObject(field).put("base64", Base64.getEncoder().encodeToString(bytes));
        }
    }
}
