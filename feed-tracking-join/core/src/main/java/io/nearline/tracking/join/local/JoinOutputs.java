package io.nearline.tracking.join.local;

import io.nearline.tracking.join.Events;
import io.nearline.tracking.join.TrackingText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a join run produced, as the sorted JSON lines a replay writes ({@code joined.jsonl},
 * {@code orphans.jsonl}, {@code late.jsonl}): sorted, so two runs compare line by line whatever
 * order the engine emitted in.
 */
public record JoinOutputs(List<String> joined, List<String> orphans, List<String> late) {

    public static JoinOutputs of(List<Events.Joined> joined, List<Events.Orphan> orphans, List<Events.Late> late) {
        List<String> j = new ArrayList<>();
        joined.forEach(e -> j.add(TrackingText.format(e)));
        List<String> o = new ArrayList<>();
        orphans.forEach(e -> o.add(TrackingText.format(e)));
        List<String> l = new ArrayList<>();
        late.forEach(e -> l.add(TrackingText.format(e)));
        Collections.sort(j);
        Collections.sort(o);
        Collections.sort(l);
        return new JoinOutputs(j, o, l);
    }

    public long complete() {
        return joined.stream()
                .filter(line -> line.contains("\"complete\":true"))
                .count();
    }
}
