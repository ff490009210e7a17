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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.avro.Op;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.SourceRecord;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChangeEventTextTest {

    @Test
    void parsesAnUpsertAndFormatsItBack() {
        String line =
                "{\"table\":\"profile\",\"key\":\"résumé\",\"partition\":3,\"scn\":42,\"op\":\"UPSERT\",\"schemaVersion\":2,\"payload\":\"Élodie\"}";
        Decoded d = ChangeEventText.parse(line);
        assertTrue(d.ok(), String.valueOf(d.rejection()));
        ChangeEvent e = d.event();
        assertEquals("résumé", e.getKey());
        assertEquals(42, e.getScn());
        assertEquals(Op.UPSERT, e.getOp());
        assertEquals(line, ChangeEventText.format(e));
        assertEquals(e, ChangeEventCodec.decode(ChangeEventCodec.encode(e)).event());
    }

    @Test
    void aDeleteHasNoPayload() {
        Decoded d = ChangeEventText.parse("{\"key\":\"k\",\"scn\":1,\"op\":\"DELETE\",\"payload\":\"ignored\"}");
        assertTrue(d.ok());
        assertNull(d.event().getPayload());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "not json at all                                  | UNDECODABLE",
                "[1,2]                                            | UNDECODABLE",
                "{\"scn\":1,\"op\":\"UPSERT\",\"payload\":\"x\"}  | MISSING_KEY",
                "{\"key\":\"k\",\"scn\":\"twelve\",\"op\":\"UPSERT\"} | BAD_SCN",
                "{\"key\":\"k\",\"scn\":1.5,\"op\":\"UPSERT\"}    | BAD_SCN",
                "{\"key\":\"k\",\"scn\":1,\"op\":\"MERGE\"}       | UNKNOWN_OP",
            })
    void linesThatCannotBeChangeEventsAreRejectedWithTheReason(String line, Rejection.Reason reason) {
        Decoded d = ChangeEventText.parse(line);
        assertFalse(d.ok());
        assertEquals(reason, d.rejection().reason(), d.rejection().detail());
    }

    @Test
    void ruleBreakersBecomeEventsForTheValidatorToReject() {
        ChangeEventValidator validator = new ChangeEventValidator(10, null);
        assertEquals(
                Rejection.Reason.BAD_SCN,
                validator
                        .check(ChangeEventText.parse("{\"key\":\"k\",\"scn\":-3,\"op\":\"UPSERT\",\"payload\":\"x\"}")
                                .event())
                        .reason());
        assertEquals(
                Rejection.Reason.MISSING_KEY,
                validator
                        .check(ChangeEventText.parse("{\"key\":\"\",\"scn\":3,\"op\":\"UPSERT\",\"payload\":\"x\"}")
                                .event())
                        .reason());
        assertEquals(
                Rejection.Reason.MISSING_PAYLOAD,
                validator
                        .check(ChangeEventText.parse("{\"key\":\"k\",\"scn\":3,\"op\":\"UPSERT\"}")
                                .event())
                        .reason());
        assertEquals(
                Rejection.Reason.OVERSIZED_PAYLOAD,
                validator
                        .check(ChangeEventText.parse(
                                        "{\"key\":\"k\",\"scn\":3,\"op\":\"UPSERT\",\"payload\":\"12345678901\"}")
                                .event())
                        .reason());
        assertEquals(
                Rejection.Reason.KEY_TOO_LONG,
                validator
                        .check(ChangeEventText.parse(
                                        "{\"key\":\"" + "x".repeat(251) + "\",\"scn\":3,\"op\":\"DELETE\"}")
                                .event())
                        .reason());
        assertNull(validator.check(ChangeEventText.parse("{\"key\":\"k\",\"scn\":3,\"op\":\"DELETE\"}")
                .event()));
    }

    @Test
    void bytesThatAreNotAChangeEventAreUndecodable() {
        assertEquals(
                Rejection.Reason.UNDECODABLE,
                ChangeEventCodec.decode(new byte[] {(byte) 0xff, 0x01, 0x02})
                        .rejection()
                        .reason());
        assertEquals(
                Rejection.Reason.UNDECODABLE,
                ChangeEventCodec.decode(new byte[0]).rejection().reason());
        byte[] good = ChangeEventCodec.encode(ChangeEventText.parse("{\"key\":\"k\",\"scn\":1,\"op\":\"DELETE\"}")
                .event());
        byte[] padded = Arrays.copyOf(good, good.length + 3);
        assertEquals(
                Rejection.Reason.UNDECODABLE,
                ChangeEventCodec.decode(padded).rejection().reason());
    }

    /** An event without a sequence keeps the wire form it had before seq existed; one with it appends it. */
    @Test
    void theSequenceIsWrittenOnlyWhenItIsNotZero() {
        ChangeEvent plain = ChangeEventText.parse("{\"key\":\"k\",\"scn\":7,\"op\":\"DELETE\"}")
                .event();
        byte[] shortForm = ChangeEventCodec.encode(plain);
        ChangeEvent withSeq = ChangeEvent.newBuilder(plain).setSeq(5).build();
        byte[] longForm = ChangeEventCodec.encode(withSeq);
        assertEquals(shortForm.length + 1, longForm.length);
        assertTrue(Arrays.equals(shortForm, Arrays.copyOf(longForm, shortForm.length)), "same bytes up to seq");
        assertEquals(0x0a, longForm[shortForm.length], "seq 5 as Avro's zig-zag varint");
        assertEquals(plain, ChangeEventCodec.decode(shortForm).event());
        assertEquals(withSeq, ChangeEventCodec.decode(longForm).event());
    }

    @Test
    void deadLettersKeepTheBytesAndTheReason() {
        var letter = DeadLetters.of(
                new SourceRecord("job", "cdc", 2, 99, "k".getBytes(), new byte[] {(byte) 0xff}),
                Rejection.of(Rejection.Reason.UNDECODABLE, "why"),
                5);
        var back = DeadLetters.decode(DeadLetters.encode(letter));
        assertEquals(letter, back);
        String json = DeadLetters.toJson(back);
        assertTrue(
                json.contains("\"reason\":\"UNDECODABLE\"")
                        && json.contains("\"value\":{\"base64\":\"/w==\"}")
                        && json.contains("\"key\":\"k\"")
                        && json.contains("\"offset\":99"),
                json);
    }
}
