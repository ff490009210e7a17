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
package io.nearline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.deadletter.DeadLetters;
import io.nearline.common.deadletter.RejectionReason;
import io.nearline.common.deadletter.SourceRecord;
import io.nearline.common.version.Version;
import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.localcluster.cdcreference.StateDump;
import io.nearline.localcluster.joinreference.JoinOracle;
import io.nearline.localcluster.joinreference.JoinOutputs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The output files users parse, each held to the form its doc gives: what a tool writes is read back
 * and its fields (nested ones by path) compared with the doc's template, so that an output changed
 * without its docs fails here. Templates are read from the docs themselves, e.g.
 * {@code {"requestId","broker":{"eventTimeMillis"},"fragments":[{"node"}],"missingNodes":[...]}}:
 * a {@code [...]} or {@code {...}} leaves its contents free.
 */
class DocumentedFormsTest {

    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theJoinsOutputFilesHaveTheFieldsTheJoinsReadmeGives() throws IOException {
        Events.BrokerEvent broker =
                new Events.BrokerEvent("r1", 1_000, Set.of("n1", "n2"), "viewer-1", List.of("d1"), "model-7");
        Events.Fragment fragment = new Events.Fragment(
                "r1", "n1", 1_010, List.of(new Events.ScoredDoc("d1", 0.5, Map.of("recency", 1.0))));
        Events.Fragment orphan = new Events.Fragment("r2", "n1", 1_020, List.of(new Events.ScoredDoc("d2", 0.1)));
        Events.Fragment late = new Events.Fragment("r3", "n2", 0, List.of());
        JoinOutputs out = JoinOracle.expected(List.of(fragment, orphan, late), List.of(broker), 1, 5_000, 100);
        assertEquals(1, out.joined().size(), out.toString());
        assertEquals(1, out.orphans().size(), out.toString());
        assertEquals(1, out.late().size(), out.toString());

        String readme = read("feed-tracking-join/README.md");
        assertForm(documented(readme, "- `joined.jsonl`"), out.joined().get(0));
        assertForm(documented(readme, "- `orphans.jsonl`"), out.orphans().get(0));
        assertForm(documented(readme, "- `late.jsonl`"), out.late().get(0));
    }

    @Test
    void aStateDumpAndADeadLetterHaveTheFieldsTheSemanticsGive() throws IOException {
        String semantics = read("docs/semantics.md");
        String dump = documented(semantics, "- cache state dump:");
        // seq only where it is not 0, payload only for an upsert: the doc says so, the template lists both
        assertFormWithin(
                dump, StateDump.line(CacheKey.of("k"), CacheRecord.upsert(Version.of(5, 2, 1), 0, bytes("{}"))));
        assertFormWithin(dump, StateDump.line(CacheKey.of("k"), CacheRecord.tombstone(Version.of(5, 1), 0)));

        RejectionReason why = new RejectionReason() {
            @Override
            public String code() {
                return "UNDECODABLE";
            }

            @Override
            public String detail() {
                return "not JSON";
            }
        };
        SourceRecord source = new SourceRecord("group", "cdc", 0, 7, bytes("k"), bytes("x"));
        assertForm(documented(semantics, "- dead letter:"), DeadLetters.toJson(source.deadLetter(why)));
    }

    /** The control: a line with a field renamed, or one missing, is not the documented form. */
    @Test
    void aRenamedOrMissingFieldIsCaught() {
        String form = "{\"requestId\",\"complete\",\"missingNodes\":[...],\"broker\":{\"viewer\"}}";
        assertForm(form, "{\"requestId\":\"r\",\"complete\":true,\"missingNodes\":[],\"broker\":{\"viewer\":\"v\"}}");
        assertThrows(
                AssertionError.class,
                () -> assertForm(
                        form, "{\"requestId\":\"r\",\"complete\":true,\"missing\":[],\"broker\":{\"viewer\":\"v\"}}"));
        assertThrows(
                AssertionError.class,
                () -> assertForm(form, "{\"requestId\":\"r\",\"complete\":true,\"missingNodes\":[],\"broker\":{}}"));
    }

    // ---- the doc's template ----

    /** The template in backquotes that follows the list item {@code item} in {@code doc}, within its first lines. */
    static String documented(String doc, String item) {
        int at = doc.indexOf(item);
        assertTrue(at >= 0, item + " is not documented");
        Matcher m = Pattern.compile("`(\\{[^`]*\\})`").matcher(doc);
        assertTrue(m.find(at) && m.start() - at < 200, "no {...} form right after " + item);
        return m.group(1);
    }

    /** The field paths a template names: {@code a}, {@code b.c}, {@code d[].e}; a free part ends in {@code *}. */
    static Set<String> paths(String template) {
        Set<String> out = new TreeSet<>();
        new Object() {
            int i = 0;

            void object(String prefix) {
                expect('{');
                if (template.startsWith("...}", i)) {
                    i += 4;
                    out.add(prefix + "*");
                    return;
                }
                while (template.charAt(i) != '}') {
                    if (template.startsWith("...", i)) { // "the rest of the fields": free
                        i += 3;
                        out.add(prefix + "*");
                    } else {
                        expect('"');
                        int end = template.indexOf('"', i);
                        String name = prefix + template.substring(i, end);
                        i = end + 1;
                        out.add(name);
                        if (template.charAt(i) == ':') {
                            i++;
                            value(name);
                        }
                    }
                    if (template.charAt(i) == ',') {
                        i++;
                    }
                }
                i++;
            }

            void value(String name) {
                if (template.charAt(i) == '{') {
                    object(name + ".");
                } else {
                    expect('[');
                    if (template.charAt(i) == '{') {
                        object(name + "[].");
                    } else { // [...] or [node,...]: free
                        i = template.indexOf(']', i);
                        out.add(name + "[].*");
                    }
                    expect(']');
                }
            }

            void expect(char c) {
                assertEquals(c, template.charAt(i), "template " + template + " at " + i);
                i++;
            }
        }.object("");
        return out;
    }

    /** The field paths of a JSON line, in the same notation, where the template names them. */
    private static Set<String> pathsOf(JsonNode node, String prefix, Set<String> documented) {
        Set<String> out = new TreeSet<>();
        if (documented.contains(prefix + "*")) {
            return out;
        }
        for (Map.Entry<String, JsonNode> f : node.properties()) {
            String name = prefix + f.getKey();
            out.add(name);
            JsonNode v = f.getValue();
            if (v.isObject()) {
                out.addAll(pathsOf(v, name + ".", documented));
            } else if (v.isArray()) {
                for (JsonNode item : v) {
                    if (item.isObject()) {
                        out.addAll(pathsOf(item, name + "[].", documented));
                    }
                }
            }
        }
        return out;
    }

    /** The line has exactly the template's fields, nested ones included. */
    static void assertForm(String template, String line) {
        Set<String> documented = paths(template);
        Set<String> written = pathsOf(parse(line), "", documented);
        Set<String> expected = new TreeSet<>(documented);
        expected.removeIf(p -> p.endsWith("*") || isInside(p, written, documented));
        assertEquals(expected, written, "documented " + template + ", written " + line);
    }

    /** The line's fields are all in the template (a field the doc says is sometimes left out may be absent). */
    static void assertFormWithin(String template, String line) {
        Set<String> documented = paths(template);
        List<String> undocumented = new ArrayList<>(pathsOf(parse(line), "", documented));
        undocumented.removeAll(documented);
        assertEquals(List.of(), undocumented, "documented " + template + ", written " + line);
    }

    /** A path under an array the line holds empty: nothing to see, so not expected. */
    private static boolean isInside(String path, Set<String> written, Set<String> documented) {
        int cut = path.lastIndexOf("[].");
        return cut > 0
                && written.contains(path.substring(0, cut))
                && written.stream().noneMatch(w -> w.startsWith(path.substring(0, cut + 3)));
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }

    private static String read(String doc) throws IOException {
        return Files.readString(CHECKOUT.resolve(doc), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
