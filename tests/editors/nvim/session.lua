-- Drives real Neovim (headless) with the documented configuration, editors/nvim/gdef.lua.
-- Environment: GDEF_NVIM_CONFIG (the config file), GDEF_NVIM_BROKEN (a game with an error),
-- GDEF_NVIM_GAME (a correct game to run with :GdefRun), GDEF_NVIM_MOVE (a move to type into
-- the game), GDEF_NVIM_OUT (where to write what Neovim received, as JSON).
-- Exits 0 after writing the result; tests/editors/test_neovim.py judges it.
local out = {}

local function finish(code)
  local file = assert(io.open(os.getenv('GDEF_NVIM_OUT'), 'w'))
  file:write(vim.fn.json_encode(out))
  file:close()
  vim.cmd(code == 0 and 'qall!' or 'cquit! ' .. code)
end

local function find(bufnr, word)
  for lnum, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(word, 1, true)
    if col then
      return lnum - 1, col - 1
    end
  end
end

local function request(bufnr, method, line, character)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr), position = { line = line, character = character } }
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, 10000) or {}
  for _, response in pairs(responses) do
    if response.result then
      return response.result
    end
  end
end

local ok, err = pcall(function()
  dofile(os.getenv('GDEF_NVIM_CONFIG'))

  -- 1. the file with an error: filetype, diagnostics, hover, completion
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('GDEF_NVIM_BROKEN')))
  local broken = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[broken].filetype
  out.commentstring = vim.bo[broken].commentstring
  out.diagnostics_arrived = vim.wait(20000, function() return #vim.diagnostic.get(broken) > 0 end, 50)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(broken)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
      message = d.message, source = d.source })
  end

  local line, col = find(broken, 'CurrentPosition')
  local hover = line and request(broken, 'textDocument/hover', line, col + 3)
  out.hover = hover and hover.contents and (hover.contents.value or vim.inspect(hover.contents)) or vim.NIL

  line, col = find(broken, 'onTurn()')
  local completion = line and request(broken, 'textDocument/completion', line, col + 2)
  out.completion = {}
  for _, item in ipairs(completion and (completion.items or completion) or {}) do
    table.insert(out.completion, item.label)
  end

  -- 2. a correct game: :GdefRun opens a terminal split running the game
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('GDEF_NVIM_GAME')))
  local game = vim.api.nvim_get_current_buf()
  local function clients(bufnr)
    return vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  end
  vim.wait(20000, function() return next(clients(game)) ~= nil end, 50)
  vim.cmd('GdefRun')
  out.terminal_opened = vim.wait(20000, function() return vim.bo.buftype == 'terminal' end, 50)
  local terminal = vim.api.nvim_get_current_buf()
  local function screen()
    return table.concat(vim.api.nvim_buf_get_lines(terminal, 0, -1, false), '\n')
  end
  vim.wait(20000, function() return screen():find('%S') ~= nil and #screen() > 20 end, 50)
  out.terminal_before = screen()
  out.terminal_windows = #vim.api.nvim_tabpage_list_wins(0)
  local move = os.getenv('GDEF_NVIM_MOVE')
  if move and move ~= '' then
    vim.api.nvim_chan_send(vim.bo[terminal].channel, move .. '\r')
    vim.wait(10000, function() return screen() ~= out.terminal_before and screen():find(move, 1, true) ~= nil and #screen() > #out.terminal_before + #move + 10 end, 50)
    vim.wait(500)
    out.terminal_after = screen()
  end
end)

if not ok then
  out.error = tostring(err)
  finish(1)
else
  finish(0)
end
