"""What holds a finding back: inline suppression comments (:mod:`.suppress`) and the baseline of
findings a log already had (:mod:`.baseline`)."""
