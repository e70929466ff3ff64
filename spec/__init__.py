"""The spec: ``spec/RULES.md`` (rendered in part from the kernel), the z3 model of the card's
rules, the proofs of its invariants, and the cross-check of the kernel against the model."""
