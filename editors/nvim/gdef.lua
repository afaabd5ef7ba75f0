-- gdef for Neovim's built-in LSP client (Neovim 0.7 or newer, no plugin needed).
-- Put this file at ~/.config/nvim/plugin/gdef.lua (or :luafile it from your init.lua).
-- It gives .gdef files a filetype, starts gdef-lsp for them, and adds :GdefRun, which runs
-- the game of the current file in a terminal split.
--
-- Another command for the server:  vim.g.gdef_lsp_cmd = { '/path/to/venv/bin/gdef-lsp' }
-- (or { 'python3', '-m', 'gdef_lsp' }) before this file is loaded.

local cmd = vim.g.gdef_lsp_cmd or { 'gdef-lsp' }

-- Filetype: *.gdef is gdef, with C-style comments.
vim.cmd([[
  augroup gdef_filetype
    autocmd!
    autocmd BufRead,BufNewFile *.gdef setfiletype gdef
    autocmd FileType gdef setlocal commentstring=//\ %s comments=s1:/*,mb:*,ex:*/,://
  augroup END
]])

-- A game's files live together: the project root (a .git folder) or else the file's folder.
local function root_dir(bufnr)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h')
  local git = vim.fn.finddir('.git', dir .. ';')
  if git ~= '' then
    return vim.fn.fnamemodify(git, ':p:h:h')
  end
  return dir
end

-- Runs an argv (a list: no shell, so paths with spaces or $(...) stay intact) in a split.
local function run_in_terminal(argv, cwd)
  vim.cmd('botright split')
  vim.cmd('enew')
  if vim.fn.has('nvim-0.11') == 1 then
    vim.fn.jobstart(argv, { term = true, cwd = cwd })
  else
    vim.fn.termopen(argv, { cwd = cwd })
  end
  vim.cmd('startinsert')
end

-- The server resolves the game's files and answers gdef.runGame with the command line to run.
local function run_game(bufnr, client)
  local uri = vim.uri_from_bufnr(bufnr)
  local cwd = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h')
  local params = { command = 'gdef.runGame', arguments = { uri } }
  local request = vim.fn.has('nvim-0.11') == 1 and function(...) return client:request(...) end or client.request
  request('workspace/executeCommand', params, function(err, argv)
    if err or type(argv) ~= 'table' or #argv == 0 then
      local why = err and err.message or 'the server returned no command line'
      vim.notify('GdefRun: cannot run the game: ' .. why, vim.log.levels.ERROR)
      return
    end
    run_in_terminal(argv, cwd)
  end, bufnr)
end

local function gdef_client(bufnr)
  if vim.lsp.get_clients then -- Neovim 0.10+
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'gdef' })[1]
  end
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == 'gdef' then
      return client
    end
  end
  return nil
end

-- The "Run game" code lens sends gdef.runGame too: run it the same way.
vim.lsp.commands['gdef.runGame'] = function(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local bufnr = command.arguments and vim.uri_to_bufnr(command.arguments[1]) or ctx.bufnr
  run_game(bufnr, client)
end

local warned = false
local client_ids = {} -- Neovim 0.7: one server per root folder

local function attach(bufnr)
  if vim.fn.executable(cmd[1]) == 0 then
    if not warned then
      warned = true
      vim.notify('gdef: ' .. cmd[1] .. ' was not found. Install gdef (pip install gdef) or set '
        .. 'vim.g.gdef_lsp_cmd to the gdef-lsp of your environment.', vim.log.levels.WARN)
    end
    return
  end
  local root = root_dir(bufnr)
  if vim.lsp.start then -- Neovim 0.8+: reuses the client of the same name and root
    vim.lsp.start({ name = 'gdef', cmd = cmd, root_dir = root }, { bufnr = bufnr })
    return
  end
  local id = client_ids[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client({ name = 'gdef', cmd = cmd, root_dir = root })
    client_ids[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'gdef',
  group = vim.api.nvim_create_augroup('gdef_lsp', { clear = true }),
  callback = function(args)
    vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc' -- <C-x><C-o> completes from the server
    attach(args.buf)
  end,
})

vim.api.nvim_create_user_command('GdefRun', function()
  local bufnr = vim.api.nvim_get_current_buf()
  vim.cmd('silent update')
  local client = gdef_client(bufnr)
  if client then
    run_game(bufnr, client)
  else -- no server: run the current file alone with gdef-run
    run_in_terminal({ 'gdef-run', vim.api.nvim_buf_get_name(bufnr) },
      vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h'))
  end
end, { desc = 'Run the game of this .gdef file in a terminal split' })
