"""What a coding agent asks for: the decisions that apply to files being edited
(:mod:`.retrieval`), keyword search (:mod:`.search`) and decision text within a size budget
(:mod:`.context`)."""
