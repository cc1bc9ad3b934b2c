// cycle_model's choice of the next model.
import type { Model } from "../../shared/types.js";

/** Model equality: same provider and id. */
export function sameModel(a: Pick<Model, "provider" | "id"> | undefined, b: Pick<Model, "provider" | "id"> | undefined): boolean {
  return !!a && !!b && a.provider === b.provider && a.id === b.id;
}

/**
 * The entry after `current` in `models`, wrapping. A current model not in the list counts as
 * entry 0 (so the second entry is chosen). Fewer than two candidates → null.
 */
export function nextModel<T extends Pick<Model, "provider" | "id">>(models: readonly T[], current: Pick<Model, "provider" | "id"> | undefined): T | null {
  if (models.length < 2) return null;
  const idx = models.findIndex((m) => sameModel(m, current));
  return models[(Math.max(idx, 0) + 1) % models.length];
}
