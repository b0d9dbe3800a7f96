"""The lab's reference agent (agent.py): the five steps written as a teacher would hand them out."""
