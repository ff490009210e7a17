package io.nearline.localcluster.simulator;

import io.nearline.common.cache.CacheKey;
import java.util.Optional;
import java.util.Set;

/** The source of truth as the divergence checker sees it: the latest row of each key. */
public interface TruthView {

    /** The latest committed row of {@code key}, a deleted one included. */
    Optional<Row> read(CacheKey key);

    /** Every key that was ever committed. */
    Set<CacheKey> keys();
}
