;;; gdef-mode.el --- gdef board-game rules, with eglot -*- lexical-binding: t -*-

;; Put this file on your load-path and (require 'gdef-mode), or paste it into your init file.
;; Emacs 29 has eglot built in; on Emacs 28 install it first (M-x package-install RET eglot,
;; or Debian's elpa-eglot).

(require 'eglot)

(defvar gdef-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; `//` to the end of the line and `/* ... */`, as in C
    (modify-syntax-entry ?/ ". 124b" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?\n "> b" table)
    (modify-syntax-entry ?_ "w" table)
    table)
  "Syntax table of `gdef-mode'.")

(defvar gdef-font-lock-keywords
  `((,(regexp-opt '("if" "else" "while" "return" "define" "start" "use") 'symbols) . font-lock-keyword-face)
    (,(regexp-opt '("int" "float" "bool" "obj") 'symbols) . font-lock-type-face)
    (,(regexp-opt '("true" "false") 'symbols) . font-lock-constant-face)
    ("^\\s-*\\(name\\|players\\|size\\)\\s-*:" 1 font-lock-preprocessor-face)
    ("\\_<define\\s-+\\([A-Za-z_][A-Za-z0-9_]*\\)" 1 font-lock-function-name-face))
  "Highlighting of the language's keywords; completion and hover explain the built-ins.")

;;;###autoload
(define-derived-mode gdef-mode prog-mode "GDef"
  "Major mode for .gdef board-game rules."
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local font-lock-defaults '(gdef-font-lock-keywords))
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 2))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.gdef\\'" . gdef-mode))
(add-to-list 'eglot-server-programs '(gdef-mode . ("gdef-lsp")))
(add-hook 'gdef-mode-hook #'eglot-ensure)

(defun gdef-run-game ()
  "Run the game of the current .gdef file in a terminal buffer (gdef-run, without a shell)."
  (interactive)
  (save-buffer)
  (let ((default-directory (file-name-directory (buffer-file-name))))
    (pop-to-buffer (make-term (format "gdef-run %s" (buffer-name)) "gdef-run" nil (buffer-file-name)))))

(define-key gdef-mode-map (kbd "C-c C-r") #'gdef-run-game)

(provide 'gdef-mode)
;;; gdef-mode.el ends here
