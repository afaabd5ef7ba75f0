-- Real Neovim (headless) with editors/nvim/gdef.lua: open GDEF_NVIM_FILE, wait for gdef-lsp,
-- format the buffer through the language server (vim.lsp.buf.format on 0.8+, formatting_sync
-- on 0.7), save it, and write {lines = the buffer's lines} or {error = ...} to GDEF_NVIM_OUT.
local out = {}
local ok, err = pcall(function()
  dofile(os.getenv('GDEF_NVIM_CONFIG'))
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('GDEF_NVIM_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local function clients()
    return vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)
  end
  assert(vim.wait(20000, function() return next(clients()) ~= nil end, 50), 'gdef-lsp did not attach')
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = buf, timeout_ms = 10000 })
  else
    vim.lsp.buf.formatting_sync(nil, 10000)
  end
  vim.cmd('write')
  out.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end)
if not ok then
  out.error = tostring(err)
end
local file = assert(io.open(os.getenv('GDEF_NVIM_OUT'), 'w'))
file:write(vim.fn.json_encode(out))
file:close()
vim.cmd('qall!')
