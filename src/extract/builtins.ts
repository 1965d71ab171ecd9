/**
 * The names each language provides itself, as data (pure): builtin
 * functions, standard globals and standard-library namespaces, which a
 * same-named definition elsewhere in the repository never answers for, and
 * C#'s implicitly imported types. The resolver (`src/reconcile/resolve.ts`)
 * refuses such calls; `callers` (`src/search/graph_query.ts`) does not count
 * them as calls that might be a definition's.
 */

const words = (s: string) => new Set(s.trim().split(/\s+/));

/** Builtin functions, standard globals and standard-library namespaces, per language. */
const BUILTINS: Record<string, ReadonlySet<string>> = {
  python: words(`
    abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod
    compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset
    getattr globals hasattr hash help hex id input int isinstance issubclass iter len list
    locals map max memoryview min next object oct open ord pow print property range repr
    reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
    __import__ Exception BaseException ValueError TypeError KeyError IndexError RuntimeError
    AttributeError NotImplementedError OSError IOError StopIteration AssertionError
    ImportError LookupError ArithmeticError ZeroDivisionError Warning DeprecationWarning
    UserWarning UnicodeError UnicodeDecodeError UnicodeEncodeError FileNotFoundError
    PermissionError TimeoutError ConnectionError`),
  javascript: words(`
    Array ArrayBuffer BigInt Boolean DataView Date Error EvalError Function Map Math Number
    Object Promise Proxy RangeError ReferenceError Reflect RegExp Set String Symbol SyntaxError
    TypeError URIError WeakMap WeakSet JSON Intl URL URLSearchParams TextEncoder TextDecoder
    AbortController Buffer Uint8Array Int32Array Float64Array console globalThis window
    document process require module exports setTimeout clearTimeout setInterval
    clearInterval setImmediate queueMicrotask structuredClone fetch parseInt parseFloat isNaN
    isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI escape unescape eval
    alert atob btoa Deno confirm prompt requestAnimationFrame cancelAnimationFrame
    requestIdleCallback addEventListener removeEventListener dispatchEvent postMessage
    getComputedStyle matchMedia performance navigator location history localStorage
    sessionStorage crypto Blob File FormData Headers Request Response WebSocket Worker Event
    CustomEvent EventTarget XMLHttpRequest AbortSignal MessageChannel BroadcastChannel
    ReadableStream WritableStream TransformStream AggregateError WeakRef FinalizationRegistry
    Int8Array Uint8ClampedArray Int16Array Uint16Array Uint32Array Float32Array BigInt64Array
    BigUint64Array SharedArrayBuffer Atomics Iterator global __dirname __filename Bun`),
  go: words(`
    append cap clear close complex copy delete imag len make max min new panic print println
    real recover error string int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64
    uintptr float32 float64 byte rune bool any`),
  c: words(`
    printf fprintf sprintf snprintf vprintf vfprintf vsnprintf scanf sscanf fscanf puts fputs
    putchar fputc getchar fgetc fgets fopen fclose fread fwrite fflush fseek ftell rewind
    perror malloc calloc realloc free memcpy memmove memset memcmp strlen strcpy strncpy
    strcat strncat strcmp strncmp strchr strrchr strstr strdup strndup strtol strtoul strtod
    atoi atol atof abs labs exit abort atexit getenv qsort bsearch assert sizeof offsetof
    isalpha isdigit isspace isalnum isupper islower toupper tolower time clock rand srand
    open close read write signal raise setjmp longjmp va_start va_end va_arg
    acos asin atan atan2 ceil cos cosh exp exp2 expm1 fabs floor fmod frexp ldexp log log10
    log1p log2 modf pow sin sinh sqrt cbrt hypot tan tanh round lround llround trunc fmin
    fmax fdim fma copysign nan isnan isinf isfinite signbit erf erfc tgamma lgamma
    sprintf vsprintf vscanf vsscanf vfscanf getc putc ungetc feof ferror clearerr fgetpos
    fsetpos freopen fdopen fileno setvbuf setbuf tmpfile tmpnam remove rename popen pclose
    atoll strtoll strtoull strtof strtold div ldiv llabs system _Exit aligned_alloc
    strerror strtok strtok_r strspn strcspn strpbrk strcoll strxfrm memchr strnlen
    strcasecmp strncasecmp isprint ispunct iscntrl isgraph isxdigit isblank
    difftime mktime localtime localtime_r gmtime gmtime_r asctime ctime strftime
    gettimeofday clock_gettime nanosleep sleep usleep fork execv execvp execve waitpid
    pipe dup dup2 lseek unlink access chdir getcwd getpid getppid isatty fsync ftruncate
    stat fstat lstat mkdir rmdir opendir readdir closedir socket bind listen accept connect
    send recv sendto recvfrom setsockopt getsockopt select poll kill sigaction
    sigemptyset mmap munmap pthread_create pthread_join pthread_mutex_lock
    pthread_mutex_unlock getaddrinfo freeaddrinfo gai_strerror getnameinfo gethostbyname
    gethostbyaddr gethostname getservbyname getservbyport getprotobyname inet_ntop
    inet_pton inet_addr inet_aton inet_ntoa htons htonl ntohs ntohl shutdown getpeername
    getsockname socketpair sendmsg recvmsg ioctl fcntl CMSG_FIRSTHDR CMSG_NXTHDR CMSG_DATA
    CMSG_LEN CMSG_SPACE`),
  ruby: words(`
    puts print p pp require require_relative load raise fail loop lambda proc format sprintf
    printf gets sleep rand srand exit abort at_exit catch throw block_given? binding caller
    attr_accessor attr_reader attr_writer include extend prepend private protected public
    module_function define_method instance_variable_get instance_variable_set freeze
    Integer Float String Array Hash Rational Complex warn system exec spawn fork open select
    trap autoload putc readline readlines exit! send public_send __send__ respond_to? is_a?
    kind_of? instance_of? nil? frozen? dup clone tap then yield_self object_id inspect to_s
    method methods instance_variables instance_variable_defined? define_singleton_method
    singleton_class instance_eval instance_exec class_eval module_eval alias_method
    private_constant __method__ __dir__`),
  php: words(`
    array count strlen strpos str_replace substr sprintf printf echo print isset unset empty
    is_array is_string is_int is_null is_numeric in_array array_map array_filter array_keys
    array_values array_merge array_key_exists explode implode trim json_encode json_decode
    var_dump print_r die exit define defined function_exists class_exists method_exists
    call_user_func call_user_func_array func_get_args sprintf preg_match preg_replace
    strtolower strtoupper ucfirst intval floatval strval file_get_contents file_put_contents`),
  bash: words(`
    echo printf cd pwd read test exit return export unset set shift eval exec source trap
    wait kill local declare typeset readonly let getopts alias unalias type command builtin
    true false cat ls rm mv cp mkdir grep sed awk find sort head tail tr cut xargs`),
  rust: words(`
    println print eprintln eprint format write writeln panic assert assert_eq assert_ne
    debug_assert debug_assert_eq unreachable unimplemented todo vec matches dbg include_str
    concat env cfg Some None Ok Err Box Vec String Option Result drop`),
  java: words(`System Math String Integer Long Double Boolean Objects Arrays Collections List Map`),
  csharp: words(`Console Math String Convert Enumerable Task Guid DateTime nameof typeof`),
};
BUILTINS.typescript = BUILTINS.javascript!;
BUILTINS.tsx = BUILTINS.javascript!;
BUILTINS.cpp = new Set([
  ...BUILTINS.c!,
  ...words(`std move forward make_unique make_shared swap static_cast dynamic_cast
    reinterpret_cast const_cast`),
]);

/**
 * C#: the types of the namespaces a project imports without writing a
 * `using` (the SDK's implicit usings: System, System.IO,
 * System.Collections.Generic, System.Linq, System.Net.Http,
 * System.Threading, System.Threading.Tasks).
 */
const IMPLICIT_TYPES: Record<string, ReadonlySet<string>> = {
  csharp: words(`
    Object Exception ArgumentException ArgumentNullException ArgumentOutOfRangeException
    InvalidOperationException NotSupportedException NotImplementedException
    FormatException TimeoutException Environment Random TimeSpan DateTimeOffset Uri Version
    Type Activator Array Buffer BitConverter GC Lazy Tuple Nullable Action Func Attribute
    EventArgs EventHandler Enum File Path Directory FileInfo DirectoryInfo Stream FileStream
    MemoryStream StreamReader StreamWriter TextReader TextWriter List Dictionary HashSet
    Queue Stack LinkedList SortedDictionary SortedList SortedSet KeyValuePair Comparer
    EqualityComparer HttpClient Timer Thread Monitor Interlocked Volatile Parallel ThreadPool
    CancellationToken CancellationTokenSource SemaphoreSlim Mutex ValueTask`),
};

/**
 * True when `name` is a type `language` code sees unimported in every
 * file (C#'s implicit usings, `Timer`, `Path`, `List`): a class of the
 * repository so named answers only where its namespace is seen.
 */
export function isImplicitType(language: string | null, name: string): boolean {
  return IMPLICIT_TYPES[language ?? ""]?.has(name) ?? false;
}

/**
 * True when `name` is a builtin or standard global of `language`: a
 * definition elsewhere in the repository never answers for it (one in the
 * same file, which shadows the builtin, still does).
 */
export function isBuiltin(language: string | null, name: string): boolean {
  return BUILTINS[language ?? ""]?.has(name) ?? false;
}

/** The languages in which `name` is a builtin or standard global ({@link isBuiltin}). */
export function languagesWithBuiltin(name: string): string[] {
  return Object.keys(BUILTINS).filter((language) => BUILTINS[language]!.has(name));
}
