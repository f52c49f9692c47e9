"""The agent side of deskgate, for agents that already exist.

- `app.agent.pyautogui`: a drop-in for the pyautogui module. Change one import line
  (`from app.agent import pyautogui`) and every click, key and keystroke goes through deskgate.
- `app.agent.adapters`: Anthropic and OpenAI computer-use tool calls → deskgate actions, and the
  replies → the tool results those loops send back to their model.
- `app.agent.claude_code`, `app.agent.mcp_server`: the Claude Code hook and the MCP server.

They speak to the supervisor through `app.agent.client.Client`; with no supervisor nothing is performed.
"""
