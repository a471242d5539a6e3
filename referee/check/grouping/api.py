"""What the rest of referee calls of the grouping (``docs/grouping.md``): a campaign files each failing scenario
(:func:`file_failure`), counts the groups left once merged (:func:`groups_left`) and settles them at the end
(:func:`settle_groups`); every verb names a failing scenario's clause at fault through :func:`name_the_fault`
(:func:`clause_at_fault`: its key's clause) and keys it through :func:`group_key_of`."""

from __future__ import annotations


from .filing import _record_group as file_failure, clause_at_fault, group_key_of, name_the_fault
from .settle import _merged_count as groups_left, _report_groups as settle_groups

__all__ = ["clause_at_fault", "file_failure", "group_key_of", "groups_left", "name_the_fault", "settle_groups"]
